"use client";
/** A failed console request in words an operator can act on, with the request id to quote. */
import { ApiConnectionError, CitedApiError } from "@/sdk/core/index.ts";

export interface ConsoleError {
  message: string;
  requestId: string | null;
}

export function consoleErrorOf(error: unknown): ConsoleError {
  if (ApiConnectionError.isInstance(error)) {
    return { message: "The app's server cannot be reached. Check your connection.", requestId: null };
  }
  if (CitedApiError.isInstance(error)) {
    const { status, problem, requestId } = error;
    if (status !== null && status >= 500) {
      return { message: "The service is not answering right now. Try again in a moment.", requestId };
    }
    if (status === 404) return { message: "It no longer exists; reload the page.", requestId };
    return { message: problem?.detail ?? error.message, requestId };
  }
  return { message: error instanceof Error ? error.message : String(error), requestId: null };
}

export function ConsoleErrorBanner({ error, onDismiss }: { error: ConsoleError; onDismiss(): void }) {
  return (
    <div
      role="alert"
      data-testid="console-error"
      className="flex items-start gap-3 rounded-lg border border-red-700 bg-red-50 p-3 text-sm text-red-900 dark:border-red-400 dark:bg-red-950 dark:text-red-100"
    >
      <div className="flex-1">
        <p>{error.message}</p>
        {error.requestId ? <p className="mt-1 font-mono text-xs">Request id: {error.requestId}</p> : null}
      </div>
      <button type="button" onClick={onDismiss} aria-label="Dismiss" className="rounded px-2 font-semibold">
        ×
      </button>
    </div>
  );
}
