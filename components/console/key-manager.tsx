"use client";
/**
 * An assistant's API keys: create one with the scopes ask and/or rag (the key is shown once, here,
 * with a copy button), see when each was made and last used, revoke one (its next request is 401).
 */
import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import type { KeyCreated, KeyRecord } from "@/sdk/admin/schemas.ts";
import type { Scope } from "@/sdk/core/wire.ts";
import { ConfirmDialog } from "./confirm-dialog";
import { consoleApi } from "./console-api";
import { CopyButton } from "./copy-button";
import { type ConsoleError, ConsoleErrorBanner, consoleErrorOf } from "./error-banner";
import { formatTime } from "./format";

const scopeHelp: Record<Scope, string> = {
  ask: "ask: cited answers (the chat)",
  rag: "rag: ranked passages (search)",
};

export function KeyManager({ assistantId, keys }: { assistantId: string; keys: KeyRecord[] }) {
  const router = useRouter();
  const [created, setCreated] = useState<KeyCreated | null>(null);
  const [revoking, setRevoking] = useState<KeyRecord | null>(null);
  const [error, setError] = useState<ConsoleError | null>(null);
  const [busy, setBusy] = useState(false);

  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const scopes = (["ask", "rag"] as const).filter((scope) => form.get(scope) === "on");
    if (scopes.length === 0) {
      setError({ message: "Pick at least one scope.", requestId: null });
      return;
    }
    setBusy(true);
    setError(null);
    try {
      setCreated(await consoleApi.createKey(assistantId, scopes, String(form.get("name") ?? "").trim()));
      formElement.reset();
      router.refresh();
    } catch (failure) {
      setError(consoleErrorOf(failure));
    } finally {
      setBusy(false);
    }
  }

  async function revoke(key: KeyRecord) {
    setRevoking(null);
    try {
      await consoleApi.revokeKey(key.id);
      router.refresh();
    } catch (failure) {
      setError(consoleErrorOf(failure));
    }
  }

  return (
    <div className="flex flex-col gap-5">
      <form
        onSubmit={create}
        data-testid="create-key"
        className="flex flex-col gap-3 rounded-xl border border-stone-300 bg-white p-4 dark:border-stone-700 dark:bg-stone-900"
      >
        <h2 className="text-lg font-semibold">New key</h2>
        <label className="flex flex-col gap-1 text-sm font-medium">
          Name (optional: where the key will be used)
          <input
            name="name"
            maxLength={200}
            placeholder="e.g. intranet app"
            className="rounded-lg border border-stone-400 bg-white px-3 py-2 text-base font-normal dark:border-stone-600 dark:bg-stone-950"
          />
        </label>
        <fieldset className="flex flex-col gap-1 text-sm">
          <legend className="mb-1 font-medium">Scopes</legend>
          {(["ask", "rag"] as const).map((scope) => (
            <label key={scope} className="flex items-center gap-2">
              <input type="checkbox" name={scope} defaultChecked className="size-4" />
              {scopeHelp[scope]}
            </label>
          ))}
        </fieldset>
        <button
          type="submit"
          disabled={busy}
          className="self-start rounded-lg bg-blue-700 px-4 py-2 font-semibold text-white hover:bg-blue-800 disabled:opacity-60"
        >
          Create key
        </button>
      </form>

      {created ? (
        <section
          data-testid="created-key"
          aria-labelledby="created-key-title"
          className="flex flex-col gap-2 rounded-xl border-2 border-amber-600 bg-amber-50 p-4 dark:border-amber-500 dark:bg-amber-950"
        >
          <h2 id="created-key-title" className="font-semibold">
            Copy the new key now
          </h2>
          <p className="text-sm">
            This is the only time it is shown: the service keeps only a hash of it. Keep it in your host app's
            server environment (<code>CITED_API_KEY</code>), never in code the browser downloads.
          </p>
          <code
            data-testid="created-key-value"
            className="break-all rounded-lg bg-white p-2 font-mono text-sm dark:bg-stone-900"
          >
            {created.key}
          </code>
          <div className="flex flex-wrap items-center gap-3">
            <CopyButton text={created.key} label="Copy the new key" />
            <button type="button" onClick={() => setCreated(null)} className="text-sm underline">
              I have copied it
            </button>
          </div>
        </section>
      ) : null}

      {error ? <ConsoleErrorBanner error={error} onDismiss={() => setError(null)} /> : null}

      {keys.length === 0 ? (
        <div
          data-testid="keys-empty"
          className="rounded-xl border border-stone-300 p-8 text-center text-stone-700 dark:border-stone-700 dark:text-stone-300"
        >
          <p className="font-medium">No keys yet.</p>
          <p className="mt-1 text-sm">A host app needs a key to ask this assistant; create one above.</p>
        </div>
      ) : (
        <ul
          data-testid="key-list"
          className="overflow-hidden rounded-xl border border-stone-300 bg-white dark:border-stone-700 dark:bg-stone-900"
        >
          {keys.map((key) => (
            <li
              key={key.id}
              data-testid="key-row"
              data-key-id={key.id}
              data-state={key.revoked_at ? "revoked" : "active"}
              className="flex flex-wrap items-center gap-x-4 gap-y-1 border-t border-stone-200 px-3 py-2.5 first:border-t-0 dark:border-stone-800"
            >
              <div className="flex min-w-0 flex-1 flex-col gap-0.5">
                <span className="flex flex-wrap items-baseline gap-x-2">
                  <span className="font-medium">{key.name ?? "Unnamed key"}</span>
                  <code className="text-xs text-stone-600 dark:text-stone-400">{key.prefix}…</code>
                  <span className="text-xs">{key.scopes.join(" + ")}</span>
                </span>
                <span className="flex flex-wrap gap-x-3 text-xs text-stone-600 dark:text-stone-400">
                  <span>created {formatTime(key.created_at)}</span>
                  <span data-testid="key-last-used">
                    {key.last_used_at ? `last used ${formatTime(key.last_used_at)}` : "never used"}
                  </span>
                  {key.expires_at ? (
                    <span data-testid="key-expires">refused from {formatTime(key.expires_at)}</span>
                  ) : null}
                  {key.revoked_at ? (
                    <span className="font-semibold text-red-800 dark:text-red-300">
                      revoked {formatTime(key.revoked_at)}
                    </span>
                  ) : null}
                </span>
              </div>
              {key.revoked_at ? null : (
                <button
                  type="button"
                  onClick={() => setRevoking(key)}
                  aria-label={`Revoke ${key.name ?? key.prefix}`}
                  className="rounded-lg border border-red-700 px-3 py-1 text-sm text-red-800 dark:border-red-400 dark:text-red-300"
                >
                  Revoke
                </button>
              )}
            </li>
          ))}
        </ul>
      )}

      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke “${revoking?.name ?? revoking?.prefix ?? ""}”?`}
        confirmLabel="Revoke key"
        onConfirm={() => revoking && revoke(revoking)}
        onCancel={() => setRevoking(null)}
      >
        <p>
          Every app that uses this key gets 401 from its next request. A revoked key cannot be restored;
          create a new one and hand it to the apps that should keep working.
        </p>
      </ConfirmDialog>
    </div>
  );
}
