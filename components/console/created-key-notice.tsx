"use client";
/** A new key, shown this once with a copy button, and where to keep it. */
import { CopyButton } from "./copy-button";

export function CreatedKeyNotice({ secret, onDismiss }: { secret: string; onDismiss(): void }) {
  return (
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
        {secret}
      </code>
      <div className="flex flex-wrap items-center gap-3">
        <CopyButton text={secret} label="Copy the new key" />
        <button type="button" onClick={onDismiss} className="text-sm underline">
          I have copied it
        </button>
      </div>
    </section>
  );
}
