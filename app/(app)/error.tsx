"use client";
/** A page that failed to render: what happened, the reference to quote, and a way to try again. */
import { useEffect } from "react";

export default function PageError({
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
    <div role="alert" data-testid="error-banner" className="mx-auto mt-16 flex max-w-md flex-col gap-3 p-6">
      <h1 className="text-xl font-semibold">This page could not be shown</h1>
      <p className="text-stone-700 dark:text-stone-300">
        Something failed on the app's server. Your conversations are kept; try again in a moment.
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
