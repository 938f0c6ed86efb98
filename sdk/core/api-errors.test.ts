import { describe, expect, it } from "vitest";
import { AnswerStreamError } from "./answer-stream-error.ts";
import {
  ApiConnectionError,
  ApiTimeoutError,
  AuthenticationError,
  apiErrorFrom,
  BadRequestError,
  CitedApiError,
  ConflictError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitError,
  ServiceUnavailableError,
  UnprocessableEntityError,
} from "./api-errors.ts";
import { CitedError } from "./errors.ts";

const problem = {
  type: "about:blank",
  title: "Invalid input",
  status: 422,
  code: "invalid_input",
  detail: "message must be 1 to 5000 characters",
  request_id: "req_body",
  errors: [{ path: "message", message: "too long (5001 > 5000)" }],
};

describe("apiErrorFrom", () => {
  it("keeps the status, code, problem details and X-Request-ID", () => {
    const error = apiErrorFrom(422, problem, { "X-Request-ID": "req_header" });

    expect(UnprocessableEntityError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 422, code: "invalid_input", requestId: "req_header", problem });
    expect(error.message).toBe("422 invalid_input: message must be 1 to 5000 characters");
  });

  it("reads problem details from the raw body text, and falls back to their request id", () => {
    const error = apiErrorFrom(422, JSON.stringify(problem), new Headers());

    expect(error).toMatchObject({ code: "invalid_input", requestId: "req_body" });
  });

  it("maps each status to its error class", () => {
    const classes = [
      [400, BadRequestError],
      [401, AuthenticationError],
      [403, PermissionDeniedError],
      [404, NotFoundError],
      [409, ConflictError],
      [413, PayloadTooLargeError],
      [422, UnprocessableEntityError],
      [429, RateLimitError],
      [502, ServiceUnavailableError],
      [503, ServiceUnavailableError],
      [504, ServiceUnavailableError],
    ] as const;
    for (const [status, ErrorClass] of classes) {
      const error = apiErrorFrom(status, null);
      expect(ErrorClass.isInstance(error), String(status)).toBe(true);
      expect(error.status).toBe(status);
    }
    expect(apiErrorFrom(500, null).constructor).toBe(CitedApiError);
    expect(apiErrorFrom(418, null).name).toBe("CitedApiError");
  });

  it("tells when to retry after a 429", () => {
    const inSeconds = apiErrorFrom(429, null, { "Retry-After": "30" });
    const asDate = apiErrorFrom(429, null, { "Retry-After": new Date(Date.now() + 90_000).toUTCString() });

    expect(RateLimitError.isInstance(inSeconds) && inSeconds.retryAfterSeconds).toBe(30);
    expect(asDate.retryAfterSeconds).toBeGreaterThanOrEqual(88);
    expect(asDate.retryAfterSeconds).toBeLessThanOrEqual(90);
    expect(apiErrorFrom(429, null).retryAfterSeconds).toBeNull();
  });

  it("keeps a short piece of a body that is not problem details", () => {
    const error = apiErrorFrom(502, "<html>Bad gateway</html>", null);

    expect(error).toMatchObject({ problem: null, code: null, requestId: null });
    expect(error.message).toBe("502 <html>Bad gateway</html>");
  });
});

describe("error identity", () => {
  it("recognises errors by class chain, not instanceof", () => {
    const timeout = new ApiTimeoutError(undefined, { cause: new Error("socket") });

    expect(ApiTimeoutError.isInstance(timeout)).toBe(true);
    expect(ApiConnectionError.isInstance(timeout)).toBe(true);
    expect(CitedApiError.isInstance(timeout)).toBe(true);
    expect(CitedError.isInstance(timeout)).toBe(true);
    expect(RateLimitError.isInstance(timeout)).toBe(false);
    expect(AnswerStreamError.isInstance(timeout)).toBe(false);
    expect(timeout).toMatchObject({ name: "ApiTimeoutError", status: null });
  });

  it("recognises an error made by another copy of the SDK", () => {
    const foreign = Object.assign(new Error("from another bundle"), {
      [Symbol.for("cited.sdk.error")]: ["RateLimitError", "CitedApiError", "CitedError"],
    });

    expect(RateLimitError.isInstance(foreign)).toBe(true);
    expect(NotFoundError.isInstance(foreign)).toBe(false);
    expect(CitedError.isInstance(new Error("plain"))).toBe(false);
    expect(CitedError.isInstance(null)).toBe(false);
  });
});
