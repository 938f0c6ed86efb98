/** The one HTTP error type of the service: it knows how to become an RFC 9457 problem-details response. */
import type { ErrorCode, ProblemDetails } from "../../sdk/core/index.ts";
import { DatabaseUnavailableError } from "../store/sql-client.ts";

const titles: Record<number, string> = {
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

export class HttpProblem extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly errors: FieldError[] | undefined;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    code: ErrorCode,
    detail: string,
    extra: { errors?: FieldError[]; headers?: Record<string, string> } = {},
  ) {
    super(detail);
    this.name = "HttpProblem";
    this.status = status;
    this.code = code;
    this.errors = extra.errors;
    this.headers = extra.headers ?? {};
  }

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
      headers: { ...this.headers, "Content-Type": "application/problem+json", "X-Request-ID": requestId },
    });
  }
}

/** What a client sees for a failure we did not anticipate: no detail, no stack. */
export function internalProblem(): HttpProblem {
  return new HttpProblem(
    500,
    "internal_error",
    "Something went wrong on our side; quote the request id to support.",
  );
}

/** An error no handler turned into a problem: storage outages are worth a retry (503), anything else is ours (500). */
export function unexpectedProblem(error: unknown): HttpProblem {
  if (error instanceof DatabaseUnavailableError) {
    return new HttpProblem(503, "unavailable", "The service cannot reach its database; retry shortly.", {
      headers: { "Retry-After": "1" },
    });
  }
  return internalProblem();
}
