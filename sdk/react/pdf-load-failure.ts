/** What a reader is told when a cited PDF page (or uploaded image) cannot be shown, and whether trying again can help. */
import {
  ApiConnectionError,
  ApiTimeoutError,
  AuthenticationError,
  CitedApiError,
  ConflictError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
} from "../core/index.ts";

export interface PdfLoadFailure {
  message: string;
  requestId: string | null;
  /** Seconds before "Try again" may load the page again; null when trying again cannot help. */
  retryAfterSeconds: number | null;
}

/** The wait before trying again after `failures` failed tries: 2 s, then twice as long each time, at most 30 s. */
function backoffSeconds(failures: number): number {
  return Math.min(30, 2 * 2 ** Math.max(0, failures - 1));
}

/** `failures` counts the failed tries so far, this one included; `shown` names what could not be shown. */
export function describePdfFailure(
  error: unknown,
  failures: number,
  shown: "page" | "image" = "page",
): PdfLoadFailure {
  const requestId = CitedApiError.isInstance(error) ? error.requestId : null;
  const final = (message: string): PdfLoadFailure => ({ message, requestId, retryAfterSeconds: null });
  const passing = (message: string, seconds = backoffSeconds(failures)): PdfLoadFailure => ({
    message,
    requestId,
    retryAfterSeconds: seconds,
  });
  if (AuthenticationError.isInstance(error))
    return final(`Your session has ended. Sign in again to see this ${shown}.`);
  if (PermissionDeniedError.isInstance(error)) return final("This source is not available to your account.");
  const status = CitedApiError.isInstance(error) ? error.status : null;
  if (NotFoundError.isInstance(error) || status === 410) {
    return final(
      "This document is no longer available: it may have been removed from the assistant's sources.",
    );
  }
  if (ConflictError.isInstance(error)) {
    return final(`The link to this ${shown} has expired. Ask the question again to see the ${shown}.`);
  }
  if (RateLimitError.isInstance(error)) {
    return passing("Too many requests just now.", error.retryAfterSeconds ?? undefined);
  }
  if (ApiTimeoutError.isInstance(error) || status === 408)
    return passing(`The ${shown} took too long to load.`);
  if (ApiConnectionError.isInstance(error))
    return passing("Could not reach the app's server. Check your connection.");
  // Any other refusal of the request as it is would be the same the next time.
  if (status !== null && status >= 400 && status < 500) {
    return final(`This ${shown} cannot be shown. Quote the request id if you report it.`);
  }
  if (CitedApiError.isInstance(error)) return passing(`The ${shown} could not be loaded just now.`);
  return passing(`The ${shown} could not be shown.`);
}
