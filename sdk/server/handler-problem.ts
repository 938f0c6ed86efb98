/** The handler's one error type: an RFC 9457 problem the browser may see, and how service failures map to it. */
import { ApiConnectionError, ApiTimeoutError, CitedApiError, type ProblemDetails } from "../core/index.ts";

const titles: Readonly<Record<number, string>> = {
  400: "Bad request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not found",
  405: "Method not allowed",
  409: "Conflict",
  413: "Payload too large",
  415: "Unsupported media type",
  422: "Invalid input",
  429: "Too many requests",
  500: "Internal error",
  502: "Bad gateway",
  503: "Service unavailable",
  504: "Gateway timeout",
};

export interface FieldError {
  path: string;
  message: string;
}

export interface HandlerProblemOptions {
  errors?: FieldError[];
  headers?: Record<string, string>;
  cause?: unknown;
}

/**
 * A failure with a status, a machine-readable `code` and a `detail` safe to show the browser.
 * Anything else thrown inside the handler becomes a generic 500.
 *
 * @example
 * throw new HandlerProblem(403, "forbidden", "Origin https://evil.example is not allowed.");
 */
export class HandlerProblem extends Error {
  readonly status: number;
  readonly code: string;
  readonly errors: FieldError[] | undefined;
  readonly headers: Record<string, string>;

  constructor(status: number, code: string, detail: string, options: HandlerProblemOptions = {}) {
    super(detail, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "HandlerProblem";
    this.status = status;
    this.code = code;
    this.errors = options.errors;
    this.headers = options.headers ?? {};
  }

  /** The problem-details body; `request_id` lets support find the logs. */
  toBody(requestId: string): ProblemDetails {
    return {
      type: "about:blank",
      title: titles[this.status] ?? "Error",
      status: this.status,
      code: this.code,
      detail: this.message,
      request_id: requestId,
      ...(this.errors ? { errors: this.errors } : {}),
    };
  }

  toResponse(requestId: string): Response {
    return new Response(JSON.stringify(this.toBody(requestId)), {
      status: this.status,
      headers: {
        ...this.headers,
        "Content-Type": "application/problem+json",
        "Cache-Control": "no-store",
        "X-Request-ID": requestId,
      },
    });
  }
}

/**
 * What a failed service call means for the browser. Statuses in `passThrough` (say 422, 404)
 * keep their status, code and detail, and a passed-through 429 keeps its `Retry-After`; an unreachable or overloaded service is 503, a slow one
 * 504; everything else, notably 401/403 (the host's key is wrong or lacks a scope), is a 502
 * that says nothing of the key. Returns null for errors that are not service failures.
 *
 * @example
 * catch (error) { throw problemFromServiceError(error, [422, 429]) ?? error; }
 */
export function problemFromServiceError(
  error: unknown,
  passThrough: readonly number[],
): HandlerProblem | null {
  if (!CitedApiError.isInstance(error)) return null;
  // Read before the class checks below: the error classes are structurally alike, so a failed
  // `isInstance` would narrow `error` to never.
  const { status, code, problem, retryAfterSeconds } = error;
  const retryAfter: Record<string, string> =
    retryAfterSeconds === null ? {} : { "Retry-After": String(retryAfterSeconds) };
  if (status === 429 && passThrough.includes(status)) {
    return new HandlerProblem(
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
    return new HandlerProblem(status, code ?? "upstream_error", problem?.detail ?? error.message, {
      ...(problem?.errors ? { errors: problem.errors } : {}),
      cause: error,
    });
  }
  if (ApiTimeoutError.isInstance(error)) {
    return new HandlerProblem(504, "timeout", "The knowledge service did not answer in time.", {
      cause: error,
    });
  }
  if (status === 503 || ApiConnectionError.isInstance(error)) {
    return new HandlerProblem(
      503,
      "unavailable",
      "The knowledge service is unavailable; try again shortly.",
      {
        headers: retryAfter,
        cause: error,
      },
    );
  }
  return new HandlerProblem(502, "upstream_error", "The knowledge service could not handle the request.", {
    cause: error,
  });
}
