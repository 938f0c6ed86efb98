/**
 * Test support: the GoTrue (Supabase Auth) part of the Supabase stand-in. What it covers, and what it
 * leaves out, is listed at the top of supabase-stand-in.ts.
 */
import { randomBytes, randomInt, randomUUID } from "node:crypto";
import {
  createLocalJWKSet,
  errors,
  exportJWK,
  generateKeyPair,
  type JSONWebKeySet,
  type JWTPayload,
  jwtVerify,
  SignJWT,
} from "jose";
import {
  codeChallengeOf,
  emailLinkTypes,
  GoTrueError,
  goTrueErrorResponse,
  invalidLink,
  matchesChallenge,
  normalizedEmail,
  otpSchema,
  passwordGrantSchema,
  pkceGrantSchema,
  readBody,
  refreshGrantSchema,
  signupSchema,
  verifySchema,
} from "./gotrue-protocol.ts";

/** A magic link GoTrue would have e-mailed: the 6-digit code, the hashed token and the link itself. */
export interface MagicLink {
  email: string;
  token: string;
  tokenHash: string;
  redirectTo: string | null;
  /** What the e-mail's button opens: `GET /auth/v1/verify?token=…&type=magiclink&redirect_to=…`. */
  url: string;
}

export type AccessTokenCheck = { claims: JWTPayload } | { problem: "expired" | "invalid" };

export interface GoTrueStandIn {
  readonly jwks: JSONWebKeySet;
  readonly magicLinks: readonly MagicLink[];
  /** Answers one request whose path is relative to `/auth/v1` (e.g. `/token`). */
  handle(request: Request, path: string): Promise<Response>;
  /** The claims of an access token this GoTrue issued and that has not expired, or why not. */
  checkAccessToken(token: string): Promise<AccessTokenCheck>;
  /** A confirmed e-mail + password user, as if created in the dashboard. */
  createUser(email: string, password: string): { id: string; email: string };
}

interface StoredUser {
  id: string;
  email: string;
  password: string | null;
  createdAt: string;
  confirmedAt: string | null;
  lastSignInAt: string | null;
  userMetadata: Record<string, unknown>;
}

type SignInMethod = "password" | "otp";

interface StoredSession {
  id: string;
  userId: string;
  method: SignInMethod;
  active: boolean;
}

interface PendingLink {
  link: MagicLink;
  userId: string;
  used: boolean;
  codeChallenge: { challenge: string; method: string } | null;
}

export async function createGoTrueStandIn(options: {
  /** The project URL; the issuer is `${url}/auth/v1`. */
  url: string;
  accessTokenLifetimeSeconds: number;
}): Promise<GoTrueStandIn> {
  const issuer = `${options.url}/auth/v1`;
  const kid = randomUUID();
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  const jwks: JSONWebKeySet = {
    keys: [{ ...(await exportJWK(publicKey)), kid, alg: "ES256", use: "sig", key_ops: ["verify"] }],
  };
  const localJwks = createLocalJWKSet(jwks);
  const users = new Map<string, StoredUser>();
  const sessions = new Map<string, StoredSession>();
  const refreshTokens = new Map<string, { sessionId: string; used: boolean }>();
  const pendingLinks: PendingLink[] = [];
  const magicLinks: MagicLink[] = [];
  const authCodes = new Map<string, { userId: string; challenge: { challenge: string; method: string } }>();

  const now = () => new Date().toISOString();
  const userByEmail = (email: string) => [...users.values()].find((user) => user.email === email);

  function addUser(
    email: string,
    password: string | null,
    metadata: Record<string, unknown>,
    confirmed: boolean,
  ) {
    const user: StoredUser = {
      id: randomUUID(),
      email,
      password,
      createdAt: now(),
      confirmedAt: confirmed ? now() : null,
      lastSignInAt: null,
      userMetadata: metadata,
    };
    users.set(user.id, user);
    return user;
  }

  function userJson(user: StoredUser) {
    return {
      id: user.id,
      aud: "authenticated",
      role: "authenticated",
      email: user.email,
      email_confirmed_at: user.confirmedAt,
      phone: "",
      confirmed_at: user.confirmedAt,
      last_sign_in_at: user.lastSignInAt,
      app_metadata: { provider: "email", providers: ["email"] },
      user_metadata: user.userMetadata,
      identities: [
        {
          identity_id: user.id,
          id: user.id,
          user_id: user.id,
          identity_data: { email: user.email, email_verified: user.confirmedAt !== null, sub: user.id },
          provider: "email",
          created_at: user.createdAt,
          updated_at: user.createdAt,
          email: user.email,
        },
      ],
      created_at: user.createdAt,
      updated_at: user.lastSignInAt ?? user.createdAt,
      is_anonymous: false,
    };
  }

  /** A new access token and a new single-use refresh token for a session: GoTrue's session JSON. */
  async function issueTokens(session: StoredSession) {
    const user = users.get(session.userId);
    if (!user) throw new GoTrueError(403, "user_not_found", "User from sub claim in JWT does not exist");
    const issuedAt = Math.floor(Date.now() / 1000);
    const expiresAt = issuedAt + options.accessTokenLifetimeSeconds;
    const accessToken = await new SignJWT({
      email: user.email,
      phone: "",
      app_metadata: { provider: "email", providers: ["email"] },
      user_metadata: user.userMetadata,
      role: "authenticated",
      aal: "aal1",
      amr: [{ method: session.method, timestamp: issuedAt }],
      session_id: session.id,
      is_anonymous: false,
    })
      .setProtectedHeader({ alg: "ES256", kid, typ: "JWT" })
      .setIssuer(issuer)
      .setSubject(user.id)
      .setAudience("authenticated")
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAt)
      .sign(privateKey);
    const refreshToken = randomBytes(9).toString("base64url");
    refreshTokens.set(refreshToken, { sessionId: session.id, used: false });
    return {
      access_token: accessToken,
      token_type: "bearer",
      expires_in: options.accessTokenLifetimeSeconds,
      expires_at: expiresAt,
      refresh_token: refreshToken,
      user: userJson(user),
    };
  }

  function signIn(user: StoredUser, method: SignInMethod) {
    user.lastSignInAt = now();
    user.confirmedAt ??= user.lastSignInAt;
    const session: StoredSession = { id: randomUUID(), userId: user.id, method, active: true };
    sessions.set(session.id, session);
    return issueTokens(session);
  }

  async function checkAccessToken(token: string): Promise<AccessTokenCheck> {
    try {
      const { payload } = await jwtVerify(token, localJwks, {
        issuer,
        audience: "authenticated",
        algorithms: ["ES256"],
        requiredClaims: ["exp", "sub", "session_id"],
      });
      return { claims: payload };
    } catch (error) {
      if (error instanceof errors.JWTExpired) return { problem: "expired" };
      if (error instanceof errors.JOSEError) return { problem: "invalid" };
      throw error;
    }
  }

  /** GoTrue's `requireAuthentication`: a valid bearer token of a live session. */
  async function requireSession(request: Request): Promise<{ user: StoredUser; session: StoredSession }> {
    const token = /^Bearer (.+)$/i.exec(request.headers.get("Authorization") ?? "")?.[1];
    if (!token) throw new GoTrueError(401, "no_authorization", "This endpoint requires a valid Bearer token");
    const check = await checkAccessToken(token);
    if (!("claims" in check)) {
      throw new GoTrueError(
        403,
        "bad_jwt",
        `invalid JWT: unable to parse or verify signature (${check.problem})`,
      );
    }
    const { claims } = check;
    const session = sessions.get(String(claims.session_id));
    if (!session?.active) {
      throw new GoTrueError(403, "session_not_found", "Session from session_id claim in JWT does not exist");
    }
    const user = users.get(String(claims.sub));
    if (!user) throw new GoTrueError(403, "user_not_found", "User from sub claim in JWT does not exist");
    return { user, session };
  }

  async function signUp(request: Request) {
    const body = await readBody(request, signupSchema);
    const email = normalizedEmail(body.email);
    if (body.password.length < 6) {
      // auth-js reads the reasons into AuthWeakPasswordError.
      throw new GoTrueError(422, "weak_password", "Password should be at least 6 characters.", {
        weak_password: { reasons: ["length"] },
      });
    }
    if (userByEmail(email)) throw new GoTrueError(422, "user_already_exists", "User already registered");
    // Like a project with e-mail confirmation off (supabase/config.toml): the new user is signed in.
    const user = addUser(email, body.password, body.data ?? {}, true);
    return Response.json(await signIn(user, "password"));
  }

  async function passwordGrant(request: Request) {
    const body = await readBody(request, passwordGrantSchema);
    const user = userByEmail(body.email.trim().toLowerCase());
    if (!user || user.password === null || user.password !== body.password) {
      throw new GoTrueError(400, "invalid_credentials", "Invalid login credentials");
    }
    return Response.json(await signIn(user, "password"));
  }

  /** Refresh tokens are single-use: each grant rotates; a reused one ends its whole session, as GoTrue does. */
  async function refreshGrant(request: Request) {
    const body = await readBody(request, refreshGrantSchema);
    const entry = refreshTokens.get(body.refresh_token);
    const session = entry && sessions.get(entry.sessionId);
    if (!entry || !session?.active) {
      throw new GoTrueError(400, "refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found");
    }
    if (entry.used) {
      session.active = false;
      throw new GoTrueError(400, "refresh_token_already_used", "Invalid Refresh Token: Already Used");
    }
    entry.used = true;
    return Response.json(await issueTokens(session));
  }

  async function pkceGrant(request: Request) {
    const body = await readBody(request, pkceGrantSchema);
    const flow = authCodes.get(body.auth_code);
    if (!flow)
      throw new GoTrueError(404, "flow_state_not_found", "invalid flow state, no valid flow state found");
    if (!matchesChallenge(body.code_verifier, flow.challenge)) {
      throw new GoTrueError(
        403,
        "bad_code_verifier",
        "code challenge does not match previously saved code verifier",
      );
    }
    authCodes.delete(body.auth_code);
    const user = users.get(flow.userId);
    if (!user) throw new GoTrueError(404, "user_not_found", "User not found");
    return Response.json(await signIn(user, "otp"));
  }

  async function sendMagicLink(request: Request) {
    const body = await readBody(request, otpSchema);
    const email = normalizedEmail(body.email);
    const existing = userByEmail(email);
    if (!existing && body.create_user === false) {
      throw new GoTrueError(422, "otp_disabled", "Signups not allowed for otp");
    }
    const user = existing ?? addUser(email, null, body.data ?? {}, false);
    const redirectTo = new URL(request.url).searchParams.get("redirect_to");
    const tokenHash = randomBytes(28).toString("hex");
    const url = new URL(`${issuer}/verify`);
    url.search = new URLSearchParams({
      token: tokenHash,
      type: "magiclink",
      ...(redirectTo ? { redirect_to: redirectTo } : {}),
    }).toString();
    const link: MagicLink = {
      email,
      token: String(randomInt(0, 1_000_000)).padStart(6, "0"),
      tokenHash,
      redirectTo,
      url: url.href,
    };
    pendingLinks.push({ link, userId: user.id, used: false, codeChallenge: codeChallengeOf(body) });
    magicLinks.push(link);
    return Response.json({});
  }

  /** Takes a magic link by its hashed token or by e-mail + code; each link works once. */
  function takeLink(type: string, match: (link: MagicLink) => boolean): PendingLink {
    const pending = emailLinkTypes.has(type)
      ? pendingLinks.find((item) => !item.used && match(item.link))
      : undefined;
    if (!pending) throw invalidLink();
    pending.used = true;
    return pending;
  }

  async function verifyPost(request: Request) {
    const body = await readBody(request, verifySchema);
    const pending =
      "token_hash" in body
        ? takeLink(body.type, (link) => link.tokenHash === body.token_hash)
        : takeLink(
            body.type,
            (link) => link.email === body.email.trim().toLowerCase() && link.token === body.token,
          );
    const user = users.get(pending.userId);
    if (!user) throw invalidLink();
    return Response.json(await signIn(user, "otp"));
  }

  /** The link in the e-mail: a redirect with `?code=` (PKCE) or the session in the fragment (implicit). */
  async function verifyGet(request: Request) {
    const query = new URL(request.url).searchParams;
    const target = new URL(query.get("redirect_to") ?? options.url);
    try {
      const pending = takeLink(query.get("type") ?? "", (link) => link.tokenHash === query.get("token"));
      const user = users.get(pending.userId);
      if (!user) throw invalidLink();
      if (pending.codeChallenge) {
        const code = randomUUID();
        authCodes.set(code, { userId: user.id, challenge: pending.codeChallenge });
        target.searchParams.set("code", code);
      } else {
        const session = await signIn(user, "otp");
        target.hash = new URLSearchParams({
          access_token: session.access_token,
          expires_at: String(session.expires_at),
          expires_in: String(session.expires_in),
          refresh_token: session.refresh_token,
          token_type: "bearer",
          type: "magiclink",
        }).toString();
      }
    } catch (error) {
      if (!(error instanceof GoTrueError)) throw error;
      target.hash = new URLSearchParams({
        error: "access_denied",
        error_code: error.code,
        error_description: "Email link is invalid or has expired",
      }).toString();
    }
    return new Response(null, { status: 303, headers: { Location: target.href } });
  }

  async function logout(request: Request) {
    const { user, session } = await requireSession(request);
    const scope = new URL(request.url).searchParams.get("scope") ?? "global";
    for (const candidate of sessions.values()) {
      if (candidate.userId !== user.id) continue;
      const isThis = candidate.id === session.id;
      if (scope === "global" || (scope === "local" && isThis) || (scope === "others" && !isThis)) {
        candidate.active = false;
      }
    }
    return new Response(null, { status: 204 });
  }

  function route(request: Request, path: string): Promise<Response> | Response {
    const key = `${request.method} ${path}`;
    const grant = new URL(request.url).searchParams.get("grant_type");
    if (key === "GET /.well-known/jwks.json") return Response.json(jwks);
    if (key === "POST /signup") return signUp(request);
    if (key === "POST /token" && grant === "password") return passwordGrant(request);
    if (key === "POST /token" && grant === "refresh_token") return refreshGrant(request);
    if (key === "POST /token" && grant === "pkce") return pkceGrant(request);
    if (key === "POST /token") throw new GoTrueError(400, "validation_failed", "unsupported_grant_type");
    if (key === "POST /otp") return sendMagicLink(request);
    if (key === "POST /verify") return verifyPost(request);
    if (key === "GET /verify") return verifyGet(request);
    if (key === "GET /user") return requireSession(request).then(({ user }) => Response.json(userJson(user)));
    if (key === "POST /logout") return logout(request);
    throw new GoTrueError(404, "not_found", `The stand-in does not cover ${key}`);
  }

  return {
    jwks,
    magicLinks,
    async handle(request, path) {
      try {
        const response = await route(request, path);
        response.headers.set("X-Supabase-Api-Version", "2024-01-01");
        return response;
      } catch (error) {
        if (error instanceof GoTrueError) return goTrueErrorResponse(request, error);
        throw error;
      }
    },
    checkAccessToken,
    createUser(email, password) {
      const normalized = normalizedEmail(email);
      if (userByEmail(normalized)) throw new Error(`${normalized} already exists`);
      const user = addUser(normalized, password, {}, true);
      return { id: user.id, email: user.email };
    },
  };
}
