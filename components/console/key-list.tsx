/** An assistant's keys, one row each: name, prefix, scopes, when made and last used, and Revoke while active. */
import type { KeyRecord } from "@/sdk/admin/schemas.ts";
import { formatTime } from "./format";

export function KeyList({ keys, onRevoke }: { keys: readonly KeyRecord[]; onRevoke(key: KeyRecord): void }) {
  if (keys.length === 0) {
    return (
      <div
        data-testid="keys-empty"
        className="rounded-xl border border-stone-300 p-8 text-center text-stone-700 dark:border-stone-700 dark:text-stone-300"
      >
        <p className="font-medium">No keys yet.</p>
        <p className="mt-1 text-sm">A host app needs a key to ask this assistant; create one above.</p>
      </div>
    );
  }
  return (
    <ul
      data-testid="key-list"
      className="overflow-hidden rounded-xl border border-stone-300 bg-white dark:border-stone-700 dark:bg-stone-900"
    >
      {keys.map((key) => (
        <KeyRow key={key.id} record={key} onRevoke={() => onRevoke(key)} />
      ))}
    </ul>
  );
}

function KeyRow({ record, onRevoke }: { record: KeyRecord; onRevoke(): void }) {
  return (
    <li
      data-testid="key-row"
      data-key-id={record.id}
      data-state={record.revoked_at ? "revoked" : "active"}
      className="flex flex-wrap items-center gap-x-4 gap-y-1 border-t border-stone-200 px-3 py-2.5 first:border-t-0 dark:border-stone-800"
    >
      <div className="flex min-w-0 flex-1 flex-col gap-0.5">
        <span className="flex flex-wrap items-baseline gap-x-2">
          <span className="font-medium">{record.name ?? "Unnamed key"}</span>
          <code className="text-xs text-stone-600 dark:text-stone-400">{record.prefix}…</code>
          <span className="text-xs">{record.scopes.join(" + ")}</span>
        </span>
        <span className="flex flex-wrap gap-x-3 text-xs text-stone-600 dark:text-stone-400">
          <span>created {formatTime(record.created_at)}</span>
          <span data-testid="key-last-used">
            {record.last_used_at ? `last used ${formatTime(record.last_used_at)}` : "never used"}
          </span>
          {record.expires_at ? (
            <span data-testid="key-expires">refused from {formatTime(record.expires_at)}</span>
          ) : null}
          {record.revoked_at ? (
            <span className="font-semibold text-red-800 dark:text-red-300">
              revoked {formatTime(record.revoked_at)}
            </span>
          ) : null}
        </span>
      </div>
      {record.revoked_at ? null : (
        <button
          type="button"
          onClick={onRevoke}
          aria-label={`Revoke ${record.name ?? record.prefix}`}
          className="rounded-lg border border-red-700 px-3 py-1 text-sm text-red-800 dark:border-red-400 dark:text-red-300"
        >
          Revoke
        </button>
      )}
    </li>
  );
}
