/** HTTP failures as typed errors: status → subclass, keeping the problem details and X-Request-ID. */
import { CitedError } from "./errors.ts";
import { type ProblemDetails, problemDetailsSchema } from "./schemas/common.ts";

export interface CitedApiErrorOptions {
  /** HTTP status; null when no response arrived (connection failure, timeout). */
  status: number | null;
  problem?: ProblemDetails | null;
  requestId?: string | null;
  retryAfterSeconds?: number | null;
  cause?: unknown;
}

/**
 * A call to the service (or to the host endpoint) failed. `code` and `requestId` come from the
 * RFC 9457 problem details and the `X-Request-ID` header; quote `requestId` to support.
 *
 * @example
 * catch (error) {
 *   if (RateLimitError.isInstance(error)) await sleep((error.retryAfterSeconds ?? 1) * 1000);
 *   else if (CitedApiError.isInstance(error)) console.error(error.status, error.code, error.requestId);
 * }
 */
export class CitedApiError extends CitedError {
  static override readonly errorName: string = "CitedApiError";

  readonly status: number | null;
  /** Machine-readable `code` of the problem details (`invalid_key`, `missing_scope`, …). */
  readonly code: string | null;
  readonly requestId: string | null;
  readonly problem: ProblemDetails | null;
  /** From `Retry-After`, in seconds, when the response said when to retry. */
  readonly retryAfterSeconds: number | null;

  constructor(message: string, options: CitedApiErrorOptions) {
    super(message, { cause: options.cause });
    this.status = options.status;
    this.problem = options.problem ?? null;
    this.code = this.problem?.code ?? null;
    this.requestId = options.requestId ?? this.problem?.request_id ?? null;
    this.retryAfterSeconds = options.retryAfterSeconds ?? null;
  }
}

/** 400: the request could not be read (bad JSON, wrong content type, missing header). */
export class BadRequestError extends CitedApiError {
  static override readonly errorName: string = "BadRequestError";
}
/** 422: readable but out of bounds; `problem.errors` lists each field. */
export class UnprocessableEntityError extends CitedApiError {
  static override readonly errorName: string = "UnprocessableEntityError";
}
/** 401: unknown, malformed, revoked key, or an expired PDF token (`token_expired`). */
export class AuthenticationError extends CitedApiError {
  static override readonly errorName: string = "AuthenticationError";
}
/** 403: the key lacks the scope, or the user may not act on this resource. */
export class PermissionDeniedError extends CitedApiError {
  static override readonly errorName: string = "PermissionDeniedError";
}
/** 404. */
export class NotFoundError extends CitedApiError {
  static override readonly errorName: string = "NotFoundError";
}
/** 409, e.g. `refresh_not_allowed`: a PDF token was already renewed once. */
export class ConflictError extends CitedApiError {
  static override readonly errorName: string = "ConflictError";
}
/** 413. */
export class PayloadTooLargeError extends CitedApiError {
  static override readonly errorName: string = "PayloadTooLargeError";
}
/** 429; `retryAfterSeconds` says when to try again. */
export class RateLimitError extends CitedApiError {
  static override readonly errorName: string = "RateLimitError";
}
/** 502, 503, 504: transient; retrying is appropriate. */
export class ServiceUnavailableError extends CitedApiError {
  static override readonly errorName: string = "ServiceUnavailableError";
}
/** No response: the network failed or the connection closed (`cause` holds the fetch error). */
export class ApiConnectionError extends CitedApiError {
  static override readonly errorName: string = "ApiConnectionError";

  constructor(message = "Could not reach the service", options: Omit<CitedApiErrorOptions, "status"> = {}) {
    super(message, { ...options, status: null });
  }
}
/** No response in time. */
export class ApiTimeoutError extends ApiConnectionError {
  static override readonly errorName: string = "ApiTimeoutError";

  constructor(
    message = "The service did not answer in time",
    options: Omit<CitedApiErrorOptions, "status"> = {},
  ) {
    super(message, options);
  }
}

type ApiErrorClass = new (message: string, options: CitedApiErrorOptions) => CitedApiError;

const errorClassByStatus: Readonly<Record<number, ApiErrorClass>> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  413: PayloadTooLargeError,
  422: UnprocessableEntityError,
  429: RateLimitError,
  502: ServiceUnavailableError,
  503: ServiceUnavailableError,
  504: ServiceUnavailableError,
};

/**
 * Builds the typed error for a failed response. `body` is the parsed JSON or the raw text;
 * problem details in it are kept when they match the contract. Other statuses give a plain
 * `CitedApiError`.
 *
 * @example
 * const response = await fetch(url, init);
 * if (!response.ok) throw apiErrorFrom(response.status, await response.text(), response.headers);
 */
export function apiErrorFrom(status: number, body: unknown, headers?: HeadersInit | null): CitedApiError {
  const headerBag = new Headers(headers ?? undefined);
  const { problem, text } = readBody(body);
  const ErrorClass = Object.hasOwn(errorClassByStatus, status) ? errorClassByStatus[status] : undefined;
  const message = problem
    ? `${status} ${problem.code}: ${problem.detail}`
    : `${status} ${text === "" ? "request failed" : text}`;
  return new (ErrorClass ?? CitedApiError)(message, {
    status,
    problem,
    requestId: headerBag.get("x-request-id"),
    retryAfterSeconds: parseRetryAfter(headerBag.get("retry-after")),
  });
}

function readBody(body: unknown): { problem: ProblemDetails | null; text: string } {
  let value = body;
  if (typeof body === "string") {
    try {
      value = JSON.parse(body);
    } catch {
      // Not JSON (a proxy's HTML page, plain text): it is still worth showing, briefly.
      return { problem: null, text: body.trim().slice(0, 200) };
    }
  }
  const parsed = problemDetailsSchema.safeParse(value);
  return { problem: parsed.success ? parsed.data : null, text: "" };
}

/** `Retry-After` is either delay-seconds or an HTTP date (RFC 9110 §10.2.3). */
function parseRetryAfter(value: string | null): number | null {
  if (value === null || value.trim() === "") return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/**
 * One call whose failures are typed: no answer at all is `ApiConnectionError` (`unreachable` says what
 * could not be reached), an answer that is not ok the `CitedApiError` of its status, with its problem
 * details and request id. A 304 is not a failure: the caller asked for it with `If-None-Match`. An abort by
 * `callerSignal` is passed on as it is (a timeout folded into `init.signal` is not the caller's).
 *
 * @example
 * const response = await fetchChecked(fetch, `${base}/admin/v1/limits`, {}, { unreachable: "No service" });
 */
export async function fetchChecked(
  send: (input: string, init: RequestInit) => Promise<Response>,
  url: string,
  init: RequestInit,
  failure: { unreachable: string; callerSignal?: AbortSignal | null | undefined },
): Promise<Response> {
  let response: Response;
  try {
    response = await send(url, init);
  } catch (error) {
    if (failure.callerSignal?.aborted) throw error;
    throw new ApiConnectionError(failure.unreachable, { cause: error });
  }
  if (!response.ok && response.status !== 304) {
    throw apiErrorFrom(response.status, await response.text(), response.headers);
  }
  return response;
}
