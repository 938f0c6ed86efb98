/** When and how long the service client waits before trying a request again. */
import { CitedApiError } from "../core/index.ts";

export interface BackoffOptions {
  /** First delay; doubles per retry. Default 500 ms. */
  initialMs?: number;
  /** Ceiling of the doubled delay. Default 8,000 ms. */
  maxMs?: number;
  /** A longer `Retry-After` than this is not waited for: the error is thrown at once. Default 60 s. */
  maxRetryAfterMs?: number;
}

/** Statuses that say "try again": timeout, rate limit and the transient gateway failures. */
const retryableStatuses: ReadonlySet<number> = new Set([408, 429, 502, 503, 504]);

/**
 * True when `error` (from one attempt, before any byte of a successful body was read) is worth
 * another attempt: a retryable status, or no response at all (network failure, timeout).
 *
 * @example
 * isRetryable(apiErrorFrom(503, "")); // true
 */
export function isRetryable(error: unknown): boolean {
  if (!CitedApiError.isInstance(error)) return false;
  return error.status === null || retryableStatuses.has(error.status);
}

/**
 * Milliseconds to wait before retry number `retry` (0-based), or null when the error's
 * `Retry-After` asks for longer than `maxRetryAfterMs`. `Retry-After` wins over the backoff;
 * otherwise the delay doubles from `initialMs` up to `maxMs`, minus up to 25 % jitter so that
 * many clients do not retry in step.
 *
 * @example
 * retryDelay(0, error); // ~375–500 ms with the defaults
 */
export function retryDelay(retry: number, error: unknown, options: BackoffOptions = {}): number | null {
  const { initialMs = 500, maxMs = 8000, maxRetryAfterMs = 60_000 } = options;
  const retryAfter = CitedApiError.isInstance(error) ? error.retryAfterSeconds : null;
  if (retryAfter !== null) {
    const waitMs = retryAfter * 1000;
    return waitMs <= maxRetryAfterMs ? waitMs : null;
  }
  const base = Math.min(initialMs * 2 ** retry, maxMs);
  return base * (1 - Math.random() * 0.25);
}

/**
 * Waits `milliseconds`, or rejects with `signal.reason` as soon as the signal aborts.
 *
 * @example
 * await sleep(500, request.signal);
 */
export function sleep(milliseconds: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, milliseconds);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
