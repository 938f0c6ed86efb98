"use client";
/** What went wrong with a request, in words a person can act on, with the request id to quote to support. */
import {
  ApiConnectionError,
  AuthenticationError,
  CitedApiError,
  RateLimitError,
  UnprocessableEntityError,
} from "@/sdk/core/index.ts";

export interface ShownError {
  message: string;
  requestId: string | null;
  signedOut: boolean;
}

export function shownErrorOf(error: unknown): ShownError {
  const requestId = CitedApiError.isInstance(error) ? error.requestId : null;
  if (AuthenticationError.isInstance(error)) {
    return { message: "You are signed out. Sign in again to go on.", requestId, signedOut: true };
  }
  if (RateLimitError.isInstance(error)) {
    const wait = error.retryAfterSeconds
      ? ` Try again in ${error.retryAfterSeconds} s.`
      : " Try again shortly.";
    return { message: `Too many questions at once.${wait}`, requestId, signedOut: false };
  }
  if (UnprocessableEntityError.isInstance(error)) {
    return {
      message: error.problem?.detail ?? "That question cannot be asked as it is.",
      requestId,
      signedOut: false,
    };
  }
  if (ApiConnectionError.isInstance(error)) {
    return {
      message: "The app's server cannot be reached. Check your connection.",
      requestId,
      signedOut: false,
    };
  }
  if (CitedApiError.isInstance(error) && error.status !== null && error.status >= 500) {
    return {
      message: "The knowledge service is not answering right now. Try again in a moment.",
      requestId,
      signedOut: false,
    };
  }
  return { message: "Something went wrong.", requestId, signedOut: false };
}

export function ErrorBanner({ error, onDismiss }: { error: ShownError; onDismiss(): void }) {
  return (
    <div
      role="alert"
      data-testid="error-banner"
      className="m-3 flex items-start gap-3 rounded-lg border border-red-700 bg-red-50 p-3 text-sm text-red-900 dark:border-red-400 dark:bg-red-950 dark:text-red-100"
    >
      <div className="flex-1">
        <p>
          {error.message}{" "}
          {error.signedOut ? (
            <a href="/sign-in" className="font-semibold underline">
              Sign in
            </a>
          ) : null}
        </p>
        {error.requestId ? <p className="mt-1 font-mono text-xs">Request id: {error.requestId}</p> : null}
      </div>
      <button type="button" onClick={onDismiss} aria-label="Dismiss" className="rounded px-2 font-semibold">
        ×
      </button>
    </div>
  );
}
