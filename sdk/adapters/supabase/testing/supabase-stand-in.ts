/**
 * Test support: a local stand-in for a hosted Supabase project behind its gateway (none can run here),
 * one HTTP server on 127.0.0.1 at a free port. It is NOT Supabase; it covers exactly this:
 *
 * Gateway
 * - `apikey` header (or `?apikey=`) must be the publishable key: else 401 `{ message, hint }`.
 *   Open without it, as on a hosted project: `GET /auth/v1/.well-known/jwks.json`, `GET /auth/v1/verify`.
 * - CORS for browsers: any origin, preflights answered 204.
 *
 * GoTrue (`/auth/v1`, see gotrue-stand-in.ts), enough for supabase-js 2.119:
 * - `POST /signup` (e-mail + password; confirmation off, so it answers a session; < 6 characters →
 *   422 weak_password; a known e-mail → 422 user_already_exists).
 * - `POST /token?grant_type=password | refresh_token | pkce`. Refresh tokens are single-use and rotate;
 *   a reused one → 400 refresh_token_already_used and ends its session (no reuse interval);
 *   unknown or signed out → 400 refresh_token_not_found.
 * - `POST /otp` (e-mail magic link only; the link is recorded in `magicLinks` instead of e-mailed;
 *   `create_user: false` for an unknown e-mail → 422 otp_disabled; no rate limit).
 * - `POST /verify` (`token_hash` or e-mail + 6-digit `token`, types email/magiclink/signup; each link
 *   once, no expiry) and `GET /verify` (the e-mailed link: 303 to `redirect_to` with `?code=` when the
 *   client used PKCE, else the session in the fragment; any `redirect_to` is allowed).
 * - `GET /user`, `POST /logout?scope=global|local|others` (a bearer token of a live session).
 * - `GET /.well-known/jwks.json`: one ES256 key (kid); access tokens are ES256 with kid, iss
 *   `${url}/auth/v1`, aud and role "authenticated", sub (uuid), email, session_id, amr, aal.
 * - Errors `{ code: error_code, msg }` with `X-Supabase-Api-Version: 2024-01-01` when the client asks
 *   for that version (auth-js does), else `{ code: status, error_code, msg }`.
 * Not covered: phone, OAuth, SSO, MFA, anonymous sign-in, admin API, user updates, password
 * recovery, e-mail change, captcha, rate limits, HS256 projects, key rotation.
 *
 * PostgREST (`/rest/v1/*`): only the gateway's part. `Authorization: Bearer <user access token>` →
 * its claims; the publishable key alone (or no Authorization) → null (anon); anything else → 401
 * PGRST301/PGRST303. The request and claims go to the `rest` option (e.g. createPostgrestStandIn).
 */
import { randomBytes } from "node:crypto";
import type { JSONWebKeySet } from "jose";
import { createGoTrueStandIn, type GoTrueStandIn, type MagicLink } from "./gotrue-stand-in.ts";
import { serveFetchHandler } from "./serve-fetch-handler.ts";

export type { MagicLink } from "./gotrue-stand-in.ts";

export interface SupabaseStandInOptions {
  /** Answers `/rest/v1/*` once the gateway has checked the token; claims are null for anon. */
  rest?: (request: Request, claims: Record<string, unknown> | null) => Promise<Response>;
  /** Lifetime of access tokens. Default 3600 seconds, as on a hosted project. */
  accessTokenLifetimeSeconds?: number;
}

export interface SupabaseStandIn {
  /** The project URL, e.g. `http://127.0.0.1:54321`. */
  readonly url: string;
  readonly publishableKey: string;
  /** The public signing keys, as served at `/auth/v1/.well-known/jwks.json`. */
  readonly jwks: JSONWebKeySet;
  /**
   * Requests answered so far, by route: `"POST /auth/v1/token?grant_type=refresh_token"`,
   * `"GET /auth/v1/user"`, `"POST /rest/v1/rpc/cited_list_conversations"`, … (preflights not counted).
   */
  readonly requests: Readonly<Record<string, number>>;
  /** Magic links GoTrue would have e-mailed, oldest first. */
  readonly magicLinks: readonly MagicLink[];
  /** A confirmed e-mail + password user, as if created in the dashboard. */
  createUser(email: string, password: string): { id: string; email: string };
  close(): Promise<void>;
}

const openAuthRoutes = new Set(["GET /.well-known/jwks.json", "GET /verify"]);

function routeKey(request: Request, url: URL): string {
  const grant = url.pathname === "/auth/v1/token" ? url.searchParams.get("grant_type") : null;
  return `${request.method} ${url.pathname}${grant ? `?grant_type=${grant}` : ""}`;
}

function withCors(request: Request, response: Response): Response {
  const headers = new Headers(response.headers);
  headers.set("Access-Control-Allow-Origin", "*");
  headers.set("Access-Control-Expose-Headers", "X-Supabase-Api-Version, Content-Range, Content-Profile");
  if (request.method === "OPTIONS") {
    headers.set("Access-Control-Allow-Methods", "GET, POST, PUT, PATCH, DELETE, OPTIONS");
    headers.set("Access-Control-Allow-Headers", request.headers.get("Access-Control-Request-Headers") ?? "*");
    headers.set("Access-Control-Max-Age", "600");
  }
  return new Response(response.body, { status: response.status, headers });
}

function postgrestError(code: string, message: string): Response {
  return Response.json({ code, details: null, hint: null, message }, { status: 401 });
}

export async function startSupabaseStandIn(options: SupabaseStandInOptions = {}): Promise<SupabaseStandIn> {
  const publishableKey = `sb_publishable_${randomBytes(16).toString("base64url")}`;
  const requests: Record<string, number> = {};

  function gateway(goTrue: GoTrueStandIn) {
    async function rest(request: Request): Promise<Response> {
      if (!options.rest) return postgrestError("PGRST125", "The stand-in was started without `rest`");
      const token = /^Bearer (.+)$/i.exec(request.headers.get("Authorization") ?? "")?.[1] ?? publishableKey;
      if (token === publishableKey) return options.rest(request, null);
      const check = await goTrue.checkAccessToken(token);
      if ("claims" in check) return options.rest(request, check.claims);
      return check.problem === "expired"
        ? postgrestError("PGRST303", "JWT expired")
        : postgrestError("PGRST301", "No suitable key or wrong key type");
    }

    return async function answer(request: Request): Promise<Response> {
      if (request.method === "OPTIONS") return new Response(null, { status: 204 });
      const url = new URL(request.url);
      const key = routeKey(request, url);
      requests[key] = (requests[key] ?? 0) + 1;
      const authPath = url.pathname.startsWith("/auth/v1/") ? url.pathname.slice("/auth/v1".length) : null;
      if (!(authPath !== null && openAuthRoutes.has(`${request.method} ${authPath}`))) {
        const apiKey = request.headers.get("apikey") ?? url.searchParams.get("apikey");
        if (apiKey === null) {
          return Response.json(
            {
              message: "No API key found in request",
              hint: "No `apikey` request header or url param was found.",
            },
            { status: 401 },
          );
        }
        if (apiKey !== publishableKey) {
          return Response.json(
            { message: "Invalid API key", hint: "Double check your Supabase API key." },
            { status: 401 },
          );
        }
      }
      if (authPath !== null) return goTrue.handle(request, authPath);
      if (url.pathname.startsWith("/rest/v1/")) return rest(request);
      return Response.json({ message: "no Route matched with those values" }, { status: 404 });
    };
  }

  let auth: GoTrueStandIn | undefined;
  const server = await serveFetchHandler(async (url) => {
    auth = await createGoTrueStandIn({
      url,
      accessTokenLifetimeSeconds: options.accessTokenLifetimeSeconds ?? 3600,
    });
    const answer = gateway(auth);
    return async (request) => withCors(request, await answer(request));
  });
  const goTrue = auth;
  if (!goTrue) throw new Error("serveFetchHandler resolved before its handler was made");
  return {
    url: server.url,
    publishableKey,
    jwks: goTrue.jwks,
    requests,
    magicLinks: goTrue.magicLinks,
    createUser: (email, password) => goTrue.createUser(email, password),
    close: () => server.close(),
  };
}
