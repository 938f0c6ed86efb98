import { describe, expect, it } from "vitest";
import { signedInUserOf } from "./signed-in-user.ts";

describe("who a verified Supabase token says is signed in", () => {
  const claims = { sub: "6f1c2a4e", role: "authenticated", email: "ada@example.com", is_anonymous: false };

  it("is the account's user, shown by email", () => {
    expect(signedInUserOf(claims)).toEqual({ id: "6f1c2a4e", name: "ada@example.com" });
    expect(signedInUserOf({ sub: "6f1c2a4e", role: "authenticated" })).toEqual({
      id: "6f1c2a4e",
      name: "6f1c2a4e",
    });
  });

  it("is nobody for an anonymous sign-in or a token of another role", () => {
    expect(signedInUserOf({ ...claims, is_anonymous: true })).toBeNull();
    expect(signedInUserOf({ ...claims, role: "anon" })).toBeNull();
    expect(signedInUserOf(undefined)).toBeNull();
  });
});
