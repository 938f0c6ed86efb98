/** The stand-in speaks GoTrue well enough for supabase-js itself: every test drives a real client. */
import { createClient, type SupportedStorage } from "@supabase/supabase-js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type SupabaseStandIn, startSupabaseStandIn } from "./supabase-stand-in.ts";

function memoryStorage(): SupportedStorage {
  const items = new Map<string, string>();
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  };
}

const restCalls: { path: string; claims: Record<string, unknown> | null }[] = [];
let standIn: SupabaseStandIn;

beforeEach(async () => {
  restCalls.length = 0;
  standIn = await startSupabaseStandIn({
    rest: async (request, claims) => {
      restCalls.push({ path: new URL(request.url).pathname, claims });
      return Response.json({ ok: true });
    },
  });
});
afterEach(() => standIn.close());

function client(flowType: "implicit" | "pkce" = "implicit") {
  return createClient(standIn.url, standIn.publishableKey, {
    auth: { persistSession: true, storage: memoryStorage(), autoRefreshToken: false, flowType },
  });
}

describe("Supabase stand-in (GoTrue part)", () => {
  it("signs a new user up and in, and getUser and getClaims (JWKS) accept the access token", async () => {
    const supabase = client();
    const { data, error } = await supabase.auth.signUp({
      email: "Ada@example.com",
      password: "correct horse",
    });
    expect(error).toBeNull();
    expect(data.session?.user.email).toBe("ada@example.com");

    const user = await supabase.auth.getUser();
    expect(user.data.user?.id).toBe(data.user?.id);
    const claims = await supabase.auth.getClaims();
    expect(claims.error).toBeNull();
    expect(claims.data?.claims).toMatchObject({
      iss: `${standIn.url}/auth/v1`,
      aud: "authenticated",
      role: "authenticated",
      sub: data.user?.id,
      email: "ada@example.com",
    });
    expect(claims.data?.header).toMatchObject({ alg: "ES256", kid: standIn.jwks.keys[0]?.kid });
  });

  it("refuses a wrong password, a second sign-up and a short password, with GoTrue's error codes", async () => {
    standIn.createUser("bob@example.com", "s3cret-pw");
    const supabase = client();
    const wrong = await supabase.auth.signInWithPassword({ email: "bob@example.com", password: "nope" });
    expect(wrong.error).toMatchObject({ status: 400, code: "invalid_credentials" });
    const again = await supabase.auth.signUp({ email: "bob@example.com", password: "whatever1" });
    expect(again.error).toMatchObject({ status: 422, code: "user_already_exists" });
    const short = await supabase.auth.signUp({ email: "bea@example.com", password: "12345" });
    expect(short.error).toMatchObject({ status: 422, code: "weak_password", reasons: ["length"] });
    const ok = await supabase.auth.signInWithPassword({ email: "bob@example.com", password: "s3cret-pw" });
    expect(ok.error).toBeNull();
  });

  it("rotates refresh tokens: each works once, and a reused one is refused and ends the session", async () => {
    standIn.createUser("carol@example.com", "s3cret-pw");
    const supabase = client();
    const signedIn = await supabase.auth.signInWithPassword({
      email: "carol@example.com",
      password: "s3cret-pw",
    });
    const first = signedIn.data.session?.refresh_token ?? "";

    const refreshed = await supabase.auth.refreshSession();
    expect(refreshed.error).toBeNull();
    expect(refreshed.data.session?.refresh_token).not.toBe(first);
    expect(standIn.requests["POST /auth/v1/token?grant_type=refresh_token"]).toBe(1);

    const reused = await client().auth.refreshSession({ refresh_token: first });
    expect(reused.error).toMatchObject({ status: 400, code: "refresh_token_already_used" });
    const afterReuse = await client().auth.refreshSession({
      refresh_token: refreshed.data.session?.refresh_token ?? "",
    });
    expect(afterReuse.error).toMatchObject({ code: "refresh_token_not_found" });
  });

  it("records a magic link whose hashed token signs the user in once", async () => {
    const supabase = client();
    const sent = await supabase.auth.signInWithOtp({
      email: "dan@example.com",
      options: { emailRedirectTo: "http://app.test/auth/confirm" },
    });
    expect(sent.error).toBeNull();
    const link = standIn.magicLinks.at(-1);
    expect(link).toMatchObject({ email: "dan@example.com", redirectTo: "http://app.test/auth/confirm" });

    const verified = await supabase.auth.verifyOtp({ type: "email", token_hash: link?.tokenHash ?? "" });
    expect(verified.data.session?.user.email).toBe("dan@example.com");
    const again = await client().auth.verifyOtp({ type: "email", token_hash: link?.tokenHash ?? "" });
    expect(again.error).toMatchObject({ status: 403, code: "otp_expired" });
  });

  it("the e-mailed link redirects with a code that a PKCE client exchanges for a session", async () => {
    const supabase = client("pkce");
    await supabase.auth.signInWithOtp({
      email: "eve@example.com",
      options: { emailRedirectTo: "http://app.test/cb" },
    });
    const link = standIn.magicLinks.at(-1)?.url ?? "";
    const redirect = await fetch(link, { redirect: "manual" });
    expect(redirect.status).toBe(303);
    const location = new URL(redirect.headers.get("Location") ?? "");
    expect(location.origin + location.pathname).toBe("http://app.test/cb");
    const code = location.searchParams.get("code") ?? "";

    const exchanged = await supabase.auth.exchangeCodeForSession(code);
    expect(exchanged.error).toBeNull();
    expect(exchanged.data.session?.user.email).toBe("eve@example.com");
    expect((await fetch(link, { redirect: "manual" })).headers.get("Location")).toContain(
      "error_code=otp_expired",
    );
  });

  it("signs out: the session's refresh token and access token stop working", async () => {
    standIn.createUser("fay@example.com", "s3cret-pw");
    const supabase = client();
    const { data } = await supabase.auth.signInWithPassword({
      email: "fay@example.com",
      password: "s3cret-pw",
    });
    const accessToken = data.session?.access_token ?? "";
    expect((await supabase.auth.signOut()).error).toBeNull();
    expect(standIn.requests["POST /auth/v1/logout"]).toBe(1);

    const user = await client().auth.getUser(accessToken);
    expect(user.error?.name).toBe("AuthSessionMissingError");
    const refreshed = await client().auth.refreshSession({
      refresh_token: data.session?.refresh_token ?? "",
    });
    expect(refreshed.error).toMatchObject({ code: "refresh_token_not_found" });
  });
});

describe("Supabase stand-in (gateway)", () => {
  it("passes the user's claims, or null for anon, to `rest`; refuses other tokens and missing keys", async () => {
    standIn.createUser("gus@example.com", "s3cret-pw");
    const supabase = client();
    await supabase.rpc("anything");
    expect(restCalls.at(-1)).toEqual({ path: "/rest/v1/rpc/anything", claims: null });

    const { data } = await supabase.auth.signInWithPassword({
      email: "gus@example.com",
      password: "s3cret-pw",
    });
    await supabase.rpc("anything");
    expect(restCalls.at(-1)?.claims).toMatchObject({ sub: data.user?.id, role: "authenticated" });

    const forged = await fetch(`${standIn.url}/rest/v1/rpc/anything`, {
      method: "POST",
      headers: { apikey: standIn.publishableKey, Authorization: "Bearer eyJhbGciOiJub25lIn0.e30." },
    });
    expect(forged.status).toBe(401);
    expect(await forged.json()).toMatchObject({ code: "PGRST301" });
    const noKey = await fetch(`${standIn.url}/auth/v1/user`);
    expect(noKey.status).toBe(401);
    const jwks = await fetch(`${standIn.url}/auth/v1/.well-known/jwks.json`);
    expect(await jwks.json()).toEqual(standIn.jwks);
    expect(restCalls).toHaveLength(2);
  });

  it("answers a browser's preflight, and errors in the legacy shape to a client that asks no API version", async () => {
    const preflight = await fetch(`${standIn.url}/auth/v1/token?grant_type=password`, {
      method: "OPTIONS",
      headers: { Origin: "http://app.test", "Access-Control-Request-Headers": "apikey, authorization" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(preflight.headers.get("Access-Control-Allow-Headers")).toBe("apikey, authorization");

    const legacy = await fetch(`${standIn.url}/auth/v1/token?grant_type=refresh_token`, {
      method: "POST",
      headers: { apikey: standIn.publishableKey, "Content-Type": "application/json" },
      body: JSON.stringify({ refresh_token: "never-issued" }),
    });
    expect(legacy.status).toBe(400);
    expect(await legacy.json()).toEqual({
      code: 400,
      error_code: "refresh_token_not_found",
      msg: "Invalid Refresh Token: Refresh Token Not Found",
    });
  });
});
