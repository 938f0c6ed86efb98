/** One authenticated HTTP exchange with the service: headers, timeout, retries and typed failures. */
import type { z } from "zod";
import {
  ApiConnectionError,
  ApiTimeoutError,
  apiErrorFrom,
  CitedApiError,
  SDK_VERSION,
} from "../core/index.ts";
import { type BackoffOptions, isRetryable, retryDelay, sleep } from "./retry-policy.ts";

export interface TransportOptions {
  apiKey: string;
  fetch?: typeof fetch;
  maxRetries?: number;
  timeoutMs?: number;
  backoff?: BackoffOptions;
}

export interface ServiceCallOptions {
  /** Aborts the call (and a stream being read); an aborted call is never retried. */
  signal?: AbortSignal;
  /** Sent as `X-Request-ID`, which the service echoes, so host and service logs share one id. */
  requestId?: string;
}

export interface ServiceCall {
  url: string;
  method: "GET" | "POST";
  /** A JSON body (sent with `Content-Type: application/json`). */
  json?: unknown;
  headers?: Record<string, string>;
}

/** A successful response whose body has not been read yet. */
export interface OpenResponse {
  response: Response;
  requestId: string | null;
  /** Reads the body still under the timeout, mapping a failure to a typed error. */
  read<Value>(reader: (response: Response) => Promise<Value>): Promise<Value>;
  /** Ends the timeout so a long stream can be read; the caller's signal still aborts it. */
  release(): void;
}

export type ServiceSend = (call: ServiceCall, options?: ServiceCallOptions) => Promise<OpenResponse>;

interface AttemptTimer {
  signal: AbortSignal;
  readonly fired: boolean;
  stop(): void;
}

/**
 * Builds the `send` function of the service client. See `createServiceClient` for the retry
 * policy it applies.
 *
 * @example
 * const send = createServiceTransport({ apiKey });
 * const { read } = await send({ url, method: "GET" }, { signal });
 * const bytes = await read((response) => response.arrayBuffer());
 */
export function createServiceTransport(options: TransportOptions): ServiceSend {
  const fetchService = options.fetch ?? globalThis.fetch;
  const maxRetries = options.maxRetries ?? 2;
  const timeoutMs = options.timeoutMs ?? 60_000;

  return async function send(call, callOptions = {}) {
    const caller = callOptions.signal;
    const requestId = callOptions.requestId ?? null;
    for (let retry = 0; ; retry += 1) {
      caller?.throwIfAborted();
      const timer = startTimer(timeoutMs);
      const signal = caller ? AbortSignal.any([caller, timer.signal]) : timer.signal;
      let error: unknown;
      try {
        const response = await fetchService(call.url, {
          method: call.method,
          headers: headersFor(call, options.apiKey, requestId),
          ...(call.json === undefined ? {} : { body: JSON.stringify(call.json) }),
          signal,
        });
        if (response.ok) return openResponse(response, timer, caller, requestId);
        error = apiErrorFrom(response.status, await response.text(), response.headers);
      } catch (thrown) {
        error = typedFailure(thrown, caller, timer, requestId);
      }
      timer.stop();
      if (caller?.aborted) throw caller.reason;
      const delay =
        retry < maxRetries && isRetryable(error) ? retryDelay(retry, error, options.backoff) : null;
      if (delay === null) throw error;
      await sleep(delay, caller);
    }
  };
}

/**
 * Parses a JSON body with a contract schema; anything else is a `CitedApiError` naming the
 * response, because a 200 with a wrong body is the service breaking the contract.
 *
 * @example
 * const rag = await open.read((response) => readJson(response, ragResponseSchema, open.requestId));
 */
export async function readJson<Schema extends z.ZodType>(
  response: Response,
  schema: Schema,
  requestId: string | null,
): Promise<z.output<Schema>> {
  const text = await response.text();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw contractBreach(response, requestId, "a body that is not JSON", cause);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw contractBreach(response, requestId, "a body outside the contract", parsed.error);
  return parsed.data;
}

/**
 * The error for a successful response that does not match the contract (bad body or headers).
 *
 * @example
 * throw contractBreach(response, requestId, "no X-Pdf-Page-Count header");
 */
export function contractBreach(
  response: Response,
  requestId: string | null,
  what: string,
  cause?: unknown,
): CitedApiError {
  return new CitedApiError(`The service answered ${response.status} with ${what}`, {
    status: response.status,
    requestId: response.headers.get("X-Request-ID") ?? requestId,
    cause,
  });
}

function headersFor(call: ServiceCall, apiKey: string, requestId: string | null): Record<string, string> {
  return {
    Authorization: `Bearer ${apiKey}`,
    "X-App-Code": "selfserve",
    "X-Cited-SDK-Version": SDK_VERSION,
    ...(call.json === undefined ? {} : { "Content-Type": "application/json" }),
    ...(requestId === null ? {} : { "X-Request-ID": requestId }),
    ...call.headers,
  };
}

function openResponse(
  response: Response,
  timer: AttemptTimer,
  caller: AbortSignal | undefined,
  sentRequestId: string | null,
): OpenResponse {
  return {
    response,
    requestId: response.headers.get("X-Request-ID") ?? sentRequestId,
    async read(reader) {
      try {
        return await reader(response);
      } catch (thrown) {
        if (caller?.aborted) throw caller.reason;
        throw typedFailure(thrown, caller, timer, sentRequestId);
      } finally {
        timer.stop();
      }
    },
    release: () => timer.stop(),
  };
}

/** What a thrown fetch or body error means for the caller: its own abort, a timeout, or no connection. */
function typedFailure(
  thrown: unknown,
  caller: AbortSignal | undefined,
  timer: AttemptTimer,
  requestId: string | null,
): unknown {
  if (caller?.aborted) return caller.reason;
  if (timer.fired) return new ApiTimeoutError(undefined, { cause: thrown, requestId });
  if (CitedApiError.isInstance(thrown)) return thrown;
  return new ApiConnectionError(undefined, { cause: thrown, requestId });
}

function startTimer(timeoutMs: number): AttemptTimer {
  const controller = new AbortController();
  let fired = false;
  const id = setTimeout(() => {
    fired = true;
    controller.abort(new ApiTimeoutError());
  }, timeoutMs);
  return {
    signal: controller.signal,
    get fired() {
      return fired;
    },
    stop: () => clearTimeout(id),
  };
}
