/**
 * JSON POSTs to a model server: a deadline per attempt, retries with backoff, and batches sent a few at a
 * time. Shared by the embeddings and rerank clients.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { ModelServerError } from "./model-server-error.ts";

export interface RequestPolicy {
  /** Deadline for one attempt, from sending the request to reading the whole reply. */
  timeoutMs: number;
  /**
   * Retries after a 408, 429, 5xx or connection error; never after another status or a bad reply, nor after
   * a timeout (that attempt already cost the caller `timeoutMs`).
   */
  maxRetries: number;
  /** The first retry waits about this long, each later one twice as long, up to `backoffCeilingMs`. */
  backoffBaseMs: number;
  backoffCeilingMs: number;
  /** A server asking (Retry-After) to wait longer than this fails the request at once. */
  retryAfterLimitMs: number;
}

const defaultRequestPolicy: RequestPolicy = {
  timeoutMs: 30_000,
  maxRetries: 3,
  backoffBaseMs: 500,
  backoffCeilingMs: 8_000,
  retryAfterLimitMs: 60_000,
};

/** The policy with every setting the caller left out taken from the defaults. */
export function requestPolicy(given: Partial<RequestPolicy>): RequestPolicy {
  return {
    timeoutMs: given.timeoutMs ?? defaultRequestPolicy.timeoutMs,
    maxRetries: given.maxRetries ?? defaultRequestPolicy.maxRetries,
    backoffBaseMs: given.backoffBaseMs ?? defaultRequestPolicy.backoffBaseMs,
    backoffCeilingMs: given.backoffCeilingMs ?? defaultRequestPolicy.backoffCeilingMs,
    retryAfterLimitMs: given.retryAfterLimitMs ?? defaultRequestPolicy.retryAfterLimitMs,
  };
}

export interface ModelServerEndpoint {
  url: string;
  /** Sent as a bearer token; none is sent when absent or empty. */
  apiKey?: string | undefined;
  fetch?: typeof fetch | undefined;
}

/** A server's endpoint `path` under its base URL (trailing slashes of the base ignored). */
export function endpointOf(
  server: { baseUrl: string; apiKey?: string | undefined; fetch?: typeof fetch | undefined },
  path: string,
): ModelServerEndpoint {
  return { url: `${server.baseUrl.replace(/\/+$/, "")}/${path}`, apiKey: server.apiKey, fetch: server.fetch };
}

/** An attempt that may be tried again, and how long the server asked us to wait first. */
interface Retryable {
  error: ModelServerError;
  retryAfterMs: number | undefined;
}

const isRetryableStatus = (status: number) => status === 408 || status === 429 || status >= 500;

function retryAfterMs(headers: Headers): number | undefined {
  const milliseconds = Number(headers.get("retry-after-ms") ?? Number.NaN);
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds;
  const value = headers.get("retry-after")?.trim();
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

// Jittered so that clients failed by the same outage do not come back in step.
function backoffMs(retry: number, policy: RequestPolicy): number {
  const full = Math.min(policy.backoffCeilingMs, policy.backoffBaseMs * 2 ** retry);
  return full * (0.75 + Math.random() * 0.25);
}

function describeFailure(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause instanceof Error && "code" in cause && typeof cause.code === "string") return cause.code;
  return error instanceof Error ? error.message : String(error);
}

/** A reply's body, shortened for an error message (servers explain a 4xx there). */
const excerpt = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}…` : text).trim();

/** A reply with an error status: thrown when retrying cannot help, returned when it may. */
function refusal(url: string, response: Response, text: string, policy: RequestPolicy): Retryable {
  const { status } = response;
  const failure = new ModelServerError("http", `${url} answered ${status}: ${excerpt(text)}`, { status });
  if (!isRetryableStatus(status)) throw failure;
  const wait = retryAfterMs(response.headers);
  if (wait !== undefined && wait > policy.retryAfterLimitMs)
    throw new ModelServerError(
      "http",
      `${url} answered ${status} and asked to wait ${Math.round(wait / 1000)} s, longer than the ${policy.retryAfterLimitMs / 1000} s allowed`,
      { status },
    );
  return { error: failure, retryAfterMs: wait };
}

async function attempt(
  endpoint: ModelServerEndpoint,
  body: string,
  policy: RequestPolicy,
  signal: AbortSignal | undefined,
): Promise<{ value: unknown } | Retryable> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), policy.timeoutMs);
  const combined = signal ? AbortSignal.any([signal, deadline.signal]) : deadline.signal;
  const headers: Record<string, string> = { "Content-Type": "application/json", Accept: "application/json" };
  if (endpoint.apiKey) headers.Authorization = `Bearer ${endpoint.apiKey}`;
  let response: Response;
  let text: string;
  try {
    response = await (endpoint.fetch ?? fetch)(endpoint.url, {
      method: "POST",
      headers,
      body,
      signal: combined,
    });
    text = await response.text();
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    if (deadline.signal.aborted)
      throw new ModelServerError("timeout", `${endpoint.url} did not answer within ${policy.timeoutMs} ms`, {
        cause: error,
      });
    const failure = new ModelServerError(
      "connection",
      `cannot reach ${endpoint.url}: ${describeFailure(error)}`,
      { cause: error },
    );
    return { error: failure, retryAfterMs: undefined };
  } finally {
    clearTimeout(timer);
  }
  if (!response.ok) return refusal(endpoint.url, response, text, policy);
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    throw new ModelServerError("protocol", `${endpoint.url} answered something that is not JSON`, {
      cause: error,
    });
  }
}

/** POSTs `body` as JSON and returns the parsed JSON reply (unchecked: the caller checks its shape). */
export async function postJson(
  endpoint: ModelServerEndpoint,
  body: unknown,
  policy: RequestPolicy,
  signal?: AbortSignal,
): Promise<unknown> {
  const serialized = JSON.stringify(body);
  for (let retry = 0; ; retry++) {
    signal?.throwIfAborted();
    const outcome = await attempt(endpoint, serialized, policy, signal);
    if ("value" in outcome) return outcome.value;
    if (retry >= policy.maxRetries) throw outcome.error;
    try {
      await sleep(outcome.retryAfterMs ?? backoffMs(retry, policy), undefined, signal ? { signal } : {});
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw error;
    }
  }
}

export interface BatchOptions {
  batchSize: number;
  /** Batches in flight at once. */
  concurrency: number;
}

/**
 * Runs `work` on consecutive slices of `items`, at most `concurrency` at a time, and joins the results
 * in the slices' order. The first failure aborts the batches in flight and starts no more.
 */
export async function inBatches<Item, Result>(
  items: readonly Item[],
  options: BatchOptions,
  signal: AbortSignal | undefined,
  work: (batch: readonly Item[], signal: AbortSignal) => Promise<Result[]>,
): Promise<Result[]> {
  const { batchSize, concurrency } = options;
  if (!Number.isInteger(batchSize) || batchSize < 1)
    throw new RangeError(`batch size ${batchSize} is not ≥ 1`);
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new RangeError(`concurrency ${concurrency} is not ≥ 1`);
  const batches: (readonly Item[])[] = [];
  for (let start = 0; start < items.length; start += batchSize)
    batches.push(items.slice(start, start + batchSize));
  const results: Result[][] = [];
  const stop = new AbortController();
  const combined = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
  let next = 0;
  const worker = async () => {
    while (next < batches.length) {
      const index = next++;
      results[index] = await work(batches[index]!, combined);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, batches.length) }, worker));
  } catch (error) {
    stop.abort();
    throw error;
  }
  return results.flat();
}
