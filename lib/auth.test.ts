/**
 * The route handler's check in Supabase mode: a verified access token of someone with an account
 * gets in; an anonymous sign-in's token, though validly signed, does not.
 */
import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { createAuthenticate } from "./auth.ts";

const supabaseUrl = "https://abcdefgh.supabase.co";
const jwtSecret = "a legacy project's shared JWT secret, 32+ characters";

async function requestWith(claims: Record<string, unknown>): Promise<Request> {
  const token = await new SignJWT({ role: "authenticated", ...claims })
    .setProtectedHeader({ alg: "HS256" })
    .setIssuer(`${supabaseUrl}/auth/v1`)
    .setAudience("authenticated")
    .setSubject("6f1c2a4e-0000-4000-8000-000000000001")
    .setExpirationTime("1h")
    .sign(new TextEncoder().encode(jwtSecret));
  return new Request("http://app.test/api/cited/ask", { headers: { Authorization: `Bearer ${token}` } });
}

describe("the route handler's authenticate in Supabase mode", () => {
  const authenticate = createAuthenticate({
    kind: "supabase",
    url: supabaseUrl,
    publishableKey: "sb_publishable_0123456789abcdef",
    secureCookies: true,
    jwtSecret,
  });

  it("lets in the holder of a valid token of an account", async () => {
    const user = await authenticate(await requestWith({ email: "ada@example.com", is_anonymous: false }));
    expect(user).toEqual({
      id: "6f1c2a4e-0000-4000-8000-000000000001",
      externalUserId: "6f1c2a4e-0000-4000-8000-000000000001",
    });
  });

  it("refuses an anonymous sign-in, which anyone can make without an account", async () => {
    expect(await authenticate(await requestWith({ is_anonymous: true }))).toBeNull();
  });
});
