import { describe, expect, it } from "vitest";
import { sessionLifetimeSeconds, signSession, userNameSchema, verifySession } from "./session.ts";

const secret = "0123456789abcdef".repeat(4);

describe("the development session", () => {
  it("round-trips the signed-in user", async () => {
    expect(await verifySession(await signSession({ id: "alice" }, secret), secret)).toEqual({ id: "alice" });
  });

  it("treats a forged, foreign, expired or missing cookie as signed out", async () => {
    const token = await signSession({ id: "alice" }, secret);
    const [header, , signature] = token.split(".");
    const forged = `${header}.${Buffer.from(JSON.stringify({ sub: "bob", iss: "cited-dev-sign-in" })).toString("base64url")}.${signature}`;
    expect(await verifySession(forged, secret)).toBeNull();
    expect(await verifySession(token, "f".repeat(64))).toBeNull();
    const old = new Date(Date.now() - (sessionLifetimeSeconds + 60) * 1000);
    expect(await verifySession(await signSession({ id: "alice" }, secret, old), secret)).toBeNull();
    expect(await verifySession(undefined, secret)).toBeNull();
    expect(await verifySession("not a token", secret)).toBeNull();
  });

  it("accepts user names a person would type, and refuses spaces and markup", () => {
    expect(userNameSchema.parse("  maria.garcia@example ")).toBe("maria.garcia@example");
    expect(userNameSchema.safeParse("two words").success).toBe(false);
    expect(userNameSchema.safeParse("<script>").success).toBe(false);
    expect(userNameSchema.safeParse("").success).toBe(false);
  });
});
