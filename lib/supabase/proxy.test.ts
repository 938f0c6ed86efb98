/**
 * The proxy's session refresh against the Supabase stand-in (GoTrue over HTTP): an access token
 * about to expire is renewed once, the new cookies reach both the browser and the page being
 * rendered, and nothing is cached; without a session, or in embedded mode, nothing happens.
 */
import { createServerClient } from "@supabase/ssr";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type SupabaseStandIn,
  startSupabaseStandIn,
} from "../../sdk/adapters/supabase/testing/supabase-stand-in.ts";
import { updateSession } from "./proxy.ts";

const refreshGrant = "POST /auth/v1/token?grant_type=refresh_token";
const password = "correct horse battery";

/**
 * The cookies a browser holds after signing in with @supabase/ssr. The stand-in's tokens live 60 s,
 * inside supabase-js's 90 s margin, so each one already counts as about to expire.
 */
async function signedInCookies(standIn: SupabaseStandIn, email: string): Promise<Map<string, string>> {
  const jar = new Map<string, string>();
  const client = createServerClient(standIn.url, standIn.publishableKey, {
    cookies: {
      getAll: () => [...jar].map(([name, value]) => ({ name, value })),
      setAll(cookies) {
        for (const { name, value } of cookies) {
          if (value === "") jar.delete(name);
          else jar.set(name, value);
        }
      },
    },
  });
  standIn.createUser(email, password);
  const { error } = await client.auth.signInWithPassword({ email, password });
  if (error) throw error;
  return jar;
}

function pageRequest(cookies: Map<string, string>): NextRequest {
  const header = [...cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  return new NextRequest("http://app.test/chat", { headers: header ? { cookie: header } : {} });
}

let standIn: SupabaseStandIn;

beforeAll(async () => {
  standIn = await startSupabaseStandIn({ accessTokenLifetimeSeconds: 60 });
});

afterAll(async () => {
  await standIn.close();
});

describe("the proxy's session refresh", () => {
  it("renews a session about to expire once, for the browser and for the page, and keeps it out of caches", async () => {
    const cookies = await signedInCookies(standIn, "ada@example.com");
    const before = standIn.requests[refreshGrant] ?? 0;

    const response = await updateSession(pageRequest(cookies), { ...standIn, secureCookies: true });

    expect(standIn.requests[refreshGrant]).toBe(before + 1);
    const renewed = response.cookies.getAll().filter((cookie) => cookies.has(cookie.name));
    expect(renewed.length).toBeGreaterThan(0);
    for (const cookie of renewed) expect(cookie.value).not.toBe(cookies.get(cookie.name));
    // The page below the proxy renders with the renewed cookies, not the ones the browser sent.
    const forwarded = response.headers.get("x-middleware-request-cookie") ?? "";
    for (const cookie of renewed) expect(forwarded).toContain(`${cookie.name}=${cookie.value}`);
    expect(response.headers.get("cache-control")).toMatch(/no-store/);
    // The app is served over https here: the renewed session never travels in the clear.
    for (const cookie of renewed) expect(cookie.secure).toBe(true);
  });

  it("touches nothing without a session", async () => {
    const before = { ...standIn.requests };
    const response = await updateSession(pageRequest(new Map()), { ...standIn, secureCookies: false });
    expect(response.cookies.getAll()).toEqual([]);
    expect(standIn.requests).toEqual(before);
  });
});
