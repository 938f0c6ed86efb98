/** How a failed call to the service becomes the problem the browser sees (sdk/core's HttpProblem). */
import { ApiConnectionError, ApiTimeoutError, CitedApiError, HttpProblem } from "../core/index.ts";

/**
 * What a failed service call means for the browser. Statuses in `passThrough` (say 422, 404)
 * keep their status, code and detail, and a passed-through 429 keeps its `Retry-After`; an unreachable or overloaded service is 503, a slow one
 * 504; everything else, notably 401/403 (the host's key is wrong or lacks a scope), is a 502
 * that says nothing of the key. Returns null for errors that are not service failures.
 *
 * @example
 * catch (error) { throw problemFromServiceError(error, [422, 429]) ?? error; }
 */
export function problemFromServiceError(error: unknown, passThrough: readonly number[]): HttpProblem | null {
  if (!CitedApiError.isInstance(error)) return null;
  // Read before the class checks below: the error classes are structurally alike, so a failed
  // `isInstance` would narrow `error` to never.
  const { status, code, problem, retryAfterSeconds } = error;
  const retryAfter: Record<string, string> =
    retryAfterSeconds === null ? {} : { "Retry-After": String(retryAfterSeconds) };
  if (status === 429 && passThrough.includes(status)) {
    return new HttpProblem(
      429,
      "rate_limited",
      "Too many requests to the knowledge service; try again shortly.",
      {
        headers: retryAfter,
        cause: error,
      },
    );
  }
  if (status !== null && passThrough.includes(status)) {
    return new HttpProblem(status, code ?? "upstream_error", problem?.detail ?? error.message, {
      ...(problem?.errors ? { errors: problem.errors } : {}),
      cause: error,
    });
  }
  if (ApiTimeoutError.isInstance(error)) {
    return new HttpProblem(504, "timeout", "The knowledge service did not answer in time.", {
      cause: error,
    });
  }
  if (status === 503 || ApiConnectionError.isInstance(error)) {
    return new HttpProblem(503, "unavailable", "The knowledge service is unavailable; try again shortly.", {
      headers: retryAfter,
      cause: error,
    });
  }
  return new HttpProblem(502, "upstream_error", "The knowledge service could not handle the request.", {
    cause: error,
  });
}
