/**
 * The one HTTP error of the service, the SDK's handler and the host's own routes: a status, a machine-readable
 * `code` and a `detail` safe to show, which becomes an RFC 9457 problem-details response.
 */
import type { ProblemDetails } from "./schemas/common.ts";

const titles: Readonly<Record<number, string>> = {
  400: "Bad request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not found",
  405: "Method not allowed",
  408: "Request timeout",
  409: "Conflict",
  413: "Payload too large",
  415: "Unsupported media type",
  422: "Invalid input",
  429: "Too many requests",
  431: "Request header fields too large",
  500: "Internal error",
  502: "Bad gateway",
  503: "Service unavailable",
  504: "Gateway timeout",
};

export interface FieldError {
  path: string;
  message: string;
}

export interface HttpProblemOptions {
  /** One entry per field out of bounds (422). */
  errors?: FieldError[];
  headers?: Record<string, string>;
  /** What went wrong underneath, for logs; never sent. */
  cause?: unknown;
}

/**
 * @example
 * throw new HttpProblem(403, "forbidden", "This request must come from the app's own origin.");
 */
export class HttpProblem extends Error {
  readonly status: number;
  readonly code: string;
  readonly errors: FieldError[] | undefined;
  readonly headers: Record<string, string>;

  constructor(status: number, code: string, detail: string, options: HttpProblemOptions = {}) {
    super(detail, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "HttpProblem";
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

/** What a client sees for a failure nobody anticipated: no detail, no stack, the request id to quote. */
export function internalProblem(): HttpProblem {
  return new HttpProblem(
    500,
    "internal_error",
    "Something went wrong on our side; quote the request id to support.",
  );
}
