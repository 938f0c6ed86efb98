import { AuthApiError, AuthRetryableFetchError, AuthWeakPasswordError } from "@supabase/supabase-js";
import { describe, expect, it } from "vitest";
import { authProblem, authProblemFields } from "./auth-problem.ts";

describe("Supabase Auth's failures in words", () => {
  it("tells the person what to do about the failures a form meets", () => {
    expect(authProblem(new AuthApiError("Invalid login credentials", 400, "invalid_credentials"))).toMatch(
      /do not match an account/,
    );
    expect(authProblem(new AuthApiError("User already registered", 422, "user_already_exists"))).toMatch(
      /already exists\. Sign in instead/,
    );
    expect(authProblem(new AuthApiError("Email not confirmed", 400, "email_not_confirmed"))).toMatch(
      /Confirm your email address first/,
    );
  });

  it("names why a password is too weak", () => {
    expect(authProblem(new AuthWeakPasswordError("weak", 422, ["length", "pwned"]))).toBe(
      "Choose a stronger password: this one is too short and appears in known password leaks.",
    );
  });

  it("says Supabase Auth is not answering when it cannot be reached", () => {
    expect(authProblem(new AuthRetryableFetchError("fetch failed", 0))).toMatch(/not answering right now/);
  });

  it("leaves an unknown failure to the caller, who logs it and shows a generic message", () => {
    expect(authProblem(new AuthApiError("Database error", 500, "unexpected_failure"))).toBeNull();
  });

  it("marks invalid only the fields a failure is about, none for a rate limit or an outage", () => {
    expect(
      authProblemFields(new AuthApiError("Invalid login credentials", 400, "invalid_credentials")),
    ).toEqual(["email", "password"]);
    expect(
      authProblemFields(new AuthApiError("User already registered", 422, "user_already_exists")),
    ).toEqual(["email"]);
    expect(authProblemFields(new AuthWeakPasswordError("weak", 422, ["length"]))).toEqual(["password"]);
    expect(authProblemFields(new AuthApiError("Too many", 429, "over_request_rate_limit"))).toEqual([]);
    expect(authProblemFields(new AuthRetryableFetchError("fetch failed", 0))).toEqual([]);
  });
});
