"use client";
/** A console page that could not be shown, usually because the service's sharing area did not answer. */
import { useEffect } from "react";

export default function ConsoleError({
  error,
  reset,
}: {
  error: Error & { digest?: string };
  reset: () => void;
}) {
  useEffect(() => {
    console.error(error);
  }, [error]);
  return (
    <div role="alert" data-testid="console-error" className="flex max-w-xl flex-col gap-3">
      <h1 className="text-xl font-semibold">This page could not be shown</h1>
      <p className="text-stone-700 dark:text-stone-300">
        The service's sharing area did not answer as expected. Check that the service runs at CITED_ADMIN_URL
        and that CITED_ADMIN_TOKEN is its admin token, then try again.
      </p>
      {error.digest ? <p className="font-mono text-xs">Error reference: {error.digest}</p> : null}
      <button
        type="button"
        onClick={reset}
        className="self-start rounded-lg bg-blue-700 px-4 py-2 font-semibold text-white"
      >
        Try again
      </button>
    </div>
  );
}
