import { describe, expect, it } from "vitest";
import { ApiConnectionError, apiErrorFrom } from "../core/index.ts";
import { describePdfFailure } from "./pdf-load-failure.ts";

const failure = (status: number) =>
  apiErrorFrom(status, { type: "about:blank", title: "x", status, code: "x", detail: "x" });

describe("a PDF page that failed to load", () => {
  it("offers to try again where a later try can succeed: the server failing, a timeout, a dropped connection", () => {
    for (const error of [
      failure(500),
      failure(502),
      failure(503),
      failure(408),
      new ApiConnectionError("reset"),
    ]) {
      expect(describePdfFailure(error, 1).retryAfterSeconds).toBe(2);
    }
  });

  it("waits longer after each failed try, at most 30 s", () => {
    expect(
      [1, 2, 3, 4, 5, 6].map((tries) => describePdfFailure(failure(503), tries).retryAfterSeconds),
    ).toEqual([2, 4, 8, 16, 30, 30]);
  });

  it("offers no retry for a request the app refuses as it is, which would be refused again", () => {
    for (const status of [400, 410, 413, 415, 422]) {
      expect(describePdfFailure(failure(status), 1).retryAfterSeconds, String(status)).toBeNull();
    }
  });

  it("says a document that is gone is gone, whether the answer is 404 or 410", () => {
    expect(describePdfFailure(failure(410), 1).message).toBe(describePdfFailure(failure(404), 1).message);
  });
});
