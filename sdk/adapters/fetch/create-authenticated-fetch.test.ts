/**
 * The authenticated fetch with a real supabase-js client, its session from the Supabase stand-in, in
 * front of a small host on 127.0.0.1 that verifies the bearer token like createSupabaseAuthenticate.
 */
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createServiceBrowserClient, type ServiceBrowserClient } from "../../browser/index.ts";
import { ApiConnectionError, AuthenticationError } from "../../core/index.ts";
import { bearerToken, createSupabaseAccessTokenVerifier } from "../supabase/index.ts";
import { type ServedHandler, serveFetchHandler } from "../supabase/testing/serve-fetch-handler.ts";
import { type SupabaseStandIn, startSupabaseStandIn } from "../supabase/testing/supabase-stand-in.ts";
import { supabaseAccessTokenSource } from "../supabase-browser/supabase-access-token-source.ts";
import { createAuthenticatedFetch } from "./create-authenticated-fetch.ts";

/** One call as the host received it. */
interface HostCall {
  method: string;
  path: string;
  token: string | null;
  body: string;
}

const refreshGrants = "POST /auth/v1/token?grant_type=refresh_token";
const conversation = (title: string | null) => ({
  id: "7d0c5b8e-3f6a-4c1e-9b2d-5a4e8f1c0d3b",
  title,
  createdAt: "2026-11-24T10:00:00Z",
  updatedAt: "2026-11-24T10:00:00Z",
});

let standIn: SupabaseStandIn;
let host: ServedHandler;
let supabase: SupabaseClient;
let cited: ServiceBrowserClient;
let calls: HostCall[];
/** Tokens the host refuses although they verify (as a host whose clock says they have expired). */
let refused: Set<string>;
/** How often the adapter asked its source for a new token (supabase-js also merges refreshes in flight). */
let renewalsAsked: number;
/** What the host does with a call it accepts or refuses; tests replace it to hold answers back. */
let answer: (call: HostCall, accepted: boolean) => Promise<Response>;

const unauthenticated = () =>
  Response.json(
    {
      type: "about:blank",
      title: "Unauthenticated",
      status: 401,
      code: "unauthenticated",
      detail: "Sign in first.",
    },
    { status: 401, headers: { "Content-Type": "application/problem+json" } },
  );

async function defaultAnswer(call: HostCall, accepted: boolean): Promise<Response> {
  if (!accepted) return unauthenticated();
  if (call.method === "POST")
    return Response.json(conversation(JSON.parse(call.body).title), { status: 201 });
  return Response.json({ conversations: [conversation("Plotting in R")] });
}

async function signedInToken(): Promise<string> {
  const { data } = await supabase.auth.getSession();
  if (!data.session) throw new Error("the test expected a session");
  return data.session.access_token;
}

beforeEach(async () => {
  calls = [];
  refused = new Set();
  renewalsAsked = 0;
  answer = defaultAnswer;
  standIn = await startSupabaseStandIn();
  standIn.createUser("ada@example.com", "correct horse");
  const verify = createSupabaseAccessTokenVerifier({ supabaseUrl: standIn.url, jwks: standIn.jwks });
  host = await serveFetchHandler(() => async (request) => {
    const token = bearerToken(request);
    const path = new URL(request.url).pathname;
    const call = { method: request.method, path, token, body: await request.text() };
    calls.push(call);
    const claims = token && !refused.has(token) ? await verify(token) : null;
    return answer(call, claims !== null);
  });
  supabase = createClient(standIn.url, standIn.publishableKey, {
    auth: { persistSession: false, autoRefreshToken: false },
  });
  const { error } = await supabase.auth.signInWithPassword({
    email: "ada@example.com",
    password: "correct horse",
  });
  if (error) throw error;
  const source = supabaseAccessTokenSource(supabase);
  cited = createServiceBrowserClient({
    endpoint: `${host.url}/api/cited`,
    fetch: createAuthenticatedFetch(
      {
        getAccessToken: () => source.getAccessToken(),
        refreshAccessToken: () => {
          renewalsAsked += 1;
          return source.refreshAccessToken();
        },
      },
      { endpoint: `${host.url}/api/cited` },
    ),
  });
});

afterEach(async () => {
  await host.close();
  await standIn.close();
});

describe("createAuthenticatedFetch: only the host endpoint gets the token", () => {
  it("sends a third-party request untouched: no Authorization, and its 401 causes no refresh", async () => {
    const thirdParty = await serveFetchHandler(
      () => async (request) =>
        Response.json({ authorization: request.headers.get("Authorization") }, { status: 401 }),
    );
    try {
      const authenticatedFetch = createAuthenticatedFetch(supabaseAccessTokenSource(supabase), {
        endpoint: `${host.url}/api/cited`,
      });
      const response = await authenticatedFetch(`${thirdParty.url}/api/cited/conversations`, {
        headers: { Authorization: "Bearer their-own" },
      });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ authorization: "Bearer their-own" });
      const bare = await authenticatedFetch(new URL(`${thirdParty.url}/collect`));
      expect(await bare.json()).toEqual({ authorization: null });
    } finally {
      await thirdParty.close();
    }
    expect(standIn.requests[refreshGrants]).toBeUndefined();
  });

  it("sends a same-origin request outside the endpoint's path without the token or a refresh", async () => {
    const authenticatedFetch = createAuthenticatedFetch(supabaseAccessTokenSource(supabase), {
      endpoint: "/api/cited/",
      base: `${host.url}/chat/some-page`,
    });
    for (const path of ["/api/other", "/api/citedx", "/api/cited/../other"]) {
      expect((await authenticatedFetch(`${host.url}${path}`)).status).toBe(401);
    }
    expect((await authenticatedFetch("/api/cited/conversations")).status).toBe(200);
    expect(calls.map((call) => [call.path, call.token !== null])).toEqual([
      ["/api/other", false],
      ["/api/citedx", false],
      ["/api/other", false],
      ["/api/cited/conversations", true],
    ]);
    expect(standIn.requests[refreshGrants]).toBeUndefined();
  });

  it("refuses a relative endpoint when there is no page to resolve it against", () => {
    expect(() =>
      createAuthenticatedFetch(supabaseAccessTokenSource(supabase), { endpoint: "/api/cited" }),
    ).toThrow(/endpoint/);
  });
});

describe("createAuthenticatedFetch with supabase-js", () => {
  it("sends the session's access token, and makes no refresh while the host accepts it", async () => {
    const token = await signedInToken();
    expect(await cited.listConversations()).toHaveLength(1);
    expect(calls.map((call) => call.token)).toEqual([token]);
    expect(standIn.requests[refreshGrants]).toBeUndefined();
  });

  it("renews a token the host refuses once, and the call succeeds with the new one", async () => {
    const expired = await signedInToken();
    refused.add(expired);
    expect(await cited.listConversations()).toHaveLength(1);
    const renewed = await signedInToken();
    expect(renewed).not.toBe(expired);
    expect(calls.map((call) => call.token)).toEqual([expired, renewed]);
    expect(standIn.requests[refreshGrants]).toBe(1);
  });

  it("five parallel calls refused together make exactly one refresh, and all retry with the new token", async () => {
    const expired = await signedInToken();
    refused.add(expired);
    // The host holds its 401s until all five calls arrived, so they truly fail together.
    const allRefused = Promise.withResolvers<void>();
    answer = async (call, accepted) => {
      if (accepted) return defaultAnswer(call, accepted);
      if (calls.length === 5) allRefused.resolve();
      await allRefused.promise;
      return unauthenticated();
    };
    const results = await Promise.all(Array.from({ length: 5 }, () => cited.listConversations()));
    expect(results.every((list) => list.length === 1)).toBe(true);
    expect(renewalsAsked).toBe(1);
    expect(standIn.requests[refreshGrants]).toBe(1);
    const renewed = await signedInToken();
    expect(calls.map((call) => call.token)).toEqual([...Array(5).fill(expired), ...Array(5).fill(renewed)]);
  });

  it("a 401 that arrives after the renewal finished uses it instead of refreshing again", async () => {
    const expired = await signedInToken();
    refused.add(expired);
    const late = Promise.withResolvers<void>();
    answer = async (call, accepted) => {
      // The first call's 401 is held back until a second call has been refused, renewed and retried.
      if (!accepted && calls.filter((seen) => seen.token === expired).length === 1) await late.promise;
      return defaultAnswer(call, accepted);
    };
    const slow = cited.listConversations();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await cited.listConversations();
    expect(standIn.requests[refreshGrants]).toBe(1);
    late.resolve();
    await slow;
    expect(renewalsAsked).toBe(1);
    expect(standIn.requests[refreshGrants]).toBe(1);
    const renewed = await signedInToken();
    expect(calls.map((call) => call.token)).toEqual([expired, expired, renewed, renewed]);
  });

  it("returns a second 401 after the renewal to the caller instead of retrying again", async () => {
    answer = async () => unauthenticated();
    await expect(cited.listConversations()).rejects.toSatisfy((error) =>
      AuthenticationError.isInstance(error),
    );
    expect(calls).toHaveLength(2);
    expect(standIn.requests[refreshGrants]).toBe(1);
  });

  it("a host that refuses even the renewed token gets no second renewal from the next call", async () => {
    // As a host with the wrong audience configured: it refuses every token, fresh or not.
    answer = async () => unauthenticated();
    const expired = await signedInToken();
    for (let call = 0; call < 2; call += 1) {
      await expect(cited.listConversations()).rejects.toSatisfy((error) =>
        AuthenticationError.isInstance(error),
      );
    }
    const renewed = await signedInToken();
    expect(calls.map((call) => call.token)).toEqual([expired, renewed, renewed]);
    expect(renewalsAsked).toBe(1);
    expect(standIn.requests[refreshGrants]).toBe(1);

    // A new sign-in hands out a token the adapter did not renew itself: it may be renewed again.
    await supabase.auth.signInWithPassword({ email: "ada@example.com", password: "correct horse" });
    answer = defaultAnswer;
    refused.add(await signedInToken());
    expect(await cited.listConversations()).toHaveLength(1);
    expect(standIn.requests[refreshGrants]).toBe(2);
  });

  it("a renewed token the host accepted is renewed again when the host later refuses it", async () => {
    refused.add(await signedInToken());
    await cited.listConversations();
    refused.add(await signedInToken());
    expect(await cited.listConversations()).toHaveLength(1);
    expect(standIn.requests[refreshGrants]).toBe(2);
  });

  it("a POST body arrives intact on the retry", async () => {
    refused.add(await signedInToken());
    const created = await cited.createConversation("Plotting in R: a long title with ünïcödé ✓");
    expect(created.title).toBe("Plotting in R: a long title with ünïcödé ✓");
    expect(calls.map((call) => [call.method, JSON.parse(call.body)])).toEqual([
      ["POST", { title: "Plotting in R: a long title with ünïcödé ✓" }],
      ["POST", { title: "Plotting in R: a long title with ünïcödé ✓" }],
    ]);
  });

  it("a stream body is sent again on the retry", async () => {
    refused.add(await signedInToken());
    const authenticatedFetch = createAuthenticatedFetch(supabaseAccessTokenSource(supabase), {
      endpoint: `${host.url}/api/cited`,
    });
    // Fetch wants `duplex: "half"` with a stream body; TypeScript's DOM types do not list it yet.
    const init: RequestInit & { duplex: "half" } = {
      method: "POST",
      body: new Blob(['{"title":"streamed"}']).stream(),
      duplex: "half",
    };
    const response = await authenticatedFetch(new Request(`${host.url}/api/cited/conversations`, init));
    expect(response.status).toBe(201);
    expect(calls.map((call) => call.body)).toEqual(['{"title":"streamed"}', '{"title":"streamed"}']);
  });

  it("returns the 401 when the session is gone (signed out elsewhere), after one refresh attempt", async () => {
    const token = await signedInToken();
    const signOut = await fetch(`${standIn.url}/auth/v1/logout?scope=global`, {
      method: "POST",
      headers: { apikey: standIn.publishableKey, Authorization: `Bearer ${token}` },
    });
    expect(signOut.status).toBe(204);
    refused.add(token);
    await expect(cited.listConversations()).rejects.toSatisfy((error) =>
      AuthenticationError.isInstance(error),
    );
    expect(calls).toHaveLength(1);
    expect(standIn.requests[refreshGrants]).toBe(1);
  });

  it("Supabase unreachable during the renewal: the call fails as a connection error and the session stays", async () => {
    const token = await signedInToken();
    refused.add(token);
    await standIn.close();
    // supabase-js retries a refresh that got no answer with backoff for up to 30 s: run its clock fast.
    vi.useFakeTimers({ toFake: ["setTimeout", "Date"] });
    try {
      const listed = cited.listConversations();
      let settled = false;
      listed.then(
        () => (settled = true),
        () => (settled = true),
      );
      while (!settled) {
        await new Promise((resolve) => setImmediate(resolve));
        await vi.advanceTimersByTimeAsync(500);
      }
      await expect(listed).rejects.toSatisfy((error) => ApiConnectionError.isInstance(error));
    } finally {
      vi.useRealTimers();
    }
    expect(calls).toHaveLength(1);
    expect(await signedInToken()).toBe(token);
  });

  it("signed out: the call goes without a token, and its 401 comes back without a refresh", async () => {
    await supabase.auth.signOut();
    await expect(cited.listConversations()).rejects.toSatisfy((error) =>
      AuthenticationError.isInstance(error),
    );
    expect(calls.map((call) => call.token)).toEqual([null]);
    expect(standIn.requests[refreshGrants]).toBeUndefined();
  });
});
