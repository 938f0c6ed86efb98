/**
 * `authenticate` for createServiceHandler on Supabase Auth: verifies the user's access token (a JWT)
 * locally with jose — against the project's JWKS, or its legacy JWT secret — without a call per request.
 */
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  customFetch,
  errors,
  type JSONWebKeySet,
  type JWTPayload,
  type JWTVerifyGetKey,
  jwtVerify,
} from "jose";
import { z } from "zod";
import { HttpProblem } from "../../core/index.ts";
import type { AuthenticatedUser } from "../../server/index.ts";

/** How a Supabase access token is checked. */
export interface SupabaseAccessTokenOptions {
  /** The project URL, e.g. `https://abcd.supabase.co`; tokens must be issued by `${supabaseUrl}/auth/v1`. */
  supabaseUrl: string;
  /** Legacy projects: the JWT secret, to verify HS256 tokens. Server-only. */
  jwtSecret?: string;
  /** The project's public signing keys, pinned. Default: fetched from `/auth/v1/.well-known/jwks.json` and cached. */
  jwks?: JSONWebKeySet;
  /** The `aud` a token must carry. Default "authenticated". */
  audience?: string;
  /** Used to fetch the JWKS. Default: the global fetch. */
  fetch?: typeof fetch;
}

export interface SupabaseAuthenticateOptions extends SupabaseAccessTokenOptions {
  /**
   * A token with less life left than this is refused as if expired. Default 60 seconds. The handler
   * keeps using the request's token after authenticate: a per-request store saves an ask's answer
   * with it when the stream ends. supabase-js renews a token only in its last 90 seconds, so without
   * this margin a token with seconds left could start an ask whose save then fails. Refused, the
   * browser's authenticated fetch renews it and the ask starts with a fresh hour.
   */
  minimumRemainingSeconds?: number;
}

/** The claims of a verified access token of a signed-in (not anonymous-key) user. */
export type SupabaseAccessTokenClaims = JWTPayload & { sub: string; role: "authenticated"; exp: number };

const claimsSchema = z.looseObject({
  sub: z.string().min(1),
  role: z.literal("authenticated"),
  exp: z.number(),
});

/** Supabase signs with ES256 or RS256 keys; HS256 only with a legacy project's shared secret. */
const asymmetricAlgorithms = ["ES256", "RS256"];
const clockToleranceSeconds = 5;

/**
 * jose errors that mean "this token is not a valid session": the user is signed out. Others (the JWKS
 * could not be fetched or read, a timeout, a bug) are not about the token, so they are thrown and the
 * handler answers 503 (or 500 for a bug) instead of signing a user out because the key server hiccuped.
 */
const tokenErrors = [
  errors.JWTExpired,
  errors.JWTClaimValidationFailed,
  errors.JWTInvalid,
  errors.JWSInvalid,
  errors.JWSSignatureVerificationFailed,
  errors.JOSEAlgNotAllowed,
  errors.JOSENotSupported,
  errors.JWKSNoMatchingKey,
  // A token without `kid` while the key set holds several keys of its algorithm (during a rotation).
  errors.JWKSMultipleMatchingKeys,
];

const isTokenError = (error: unknown) => tokenErrors.some((type) => error instanceof type);

/**
 * The project's public keys could not be had (the JWKS unreachable, not 200, not a key set, a
 * timeout): nothing is known about the token. `cause` is the failure.
 */
export class SupabaseKeysUnavailableError extends Error {
  constructor(cause: unknown) {
    super("the Supabase project's signing keys (JWKS) could not be fetched", { cause });
    this.name = "SupabaseKeysUnavailableError";
  }
}

interface Verifier {
  key: JWTVerifyGetKey;
  algorithms: string[];
  issuer: string;
  audience: string;
}

function createVerifier(options: SupabaseAccessTokenOptions): Verifier {
  const projectUrl = options.supabaseUrl.replace(/\/+$/, "");
  const issuer = `${projectUrl}/auth/v1`;
  const publicKeys = options.jwks
    ? createLocalJWKSet(options.jwks)
    : createRemoteJWKSet(new URL(`${issuer}/.well-known/jwks.json`), {
        ...(options.fetch ? { [customFetch]: options.fetch } : {}),
      });
  const secret = options.jwtSecret ? new TextEncoder().encode(options.jwtSecret) : null;
  return {
    // The allow-list below decides which kind of key a token may name; the secret never meets an
    // RS/ES token, and a public key is never taken as an HMAC secret (algorithm confusion).
    key: async (header, token) => {
      if (secret && header.alg === "HS256") return secret;
      try {
        return await publicKeys(header, token);
      } catch (error) {
        if (isTokenError(error)) throw error;
        throw new SupabaseKeysUnavailableError(error);
      }
    },
    algorithms: secret ? ["HS256", ...asymmetricAlgorithms] : asymmetricAlgorithms,
    issuer,
    audience: options.audience ?? "authenticated",
  };
}

/**
 * Creates a check of Supabase access tokens with its own JWKS cache: create it once and keep it.
 * It gives the claims of a valid access token of a signed-in user (`email`, `session_id`, …), or null
 * for any token that is not one (expired, not yet valid, another issuer or audience, a bad signature,
 * `alg: none`, an unknown key, the anon role, no `sub`). Throws SupabaseKeysUnavailableError when
 * the keys cannot be had.
 *
 * @example
 * const verify = createSupabaseAccessTokenVerifier({ supabaseUrl: env.SUPABASE_URL });
 * const claims = await verify(token);
 */
export function createSupabaseAccessTokenVerifier(
  options: SupabaseAccessTokenOptions,
): (token: string) => Promise<SupabaseAccessTokenClaims | null> {
  const verifier = createVerifier(options);
  return async (token) => {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, verifier.key, {
        issuer: verifier.issuer,
        audience: verifier.audience,
        algorithms: verifier.algorithms,
        requiredClaims: ["exp", "sub"],
        clockTolerance: clockToleranceSeconds,
      }));
    } catch (error) {
      if (isTokenError(error)) return null;
      throw error;
    }
    const claims = claimsSchema.safeParse(payload);
    return claims.success ? { ...payload, ...claims.data } : null;
  };
}

/** The token of `Authorization: Bearer <token>`, or null when the header is missing or malformed. */
export function bearerToken(request: Request): string | null {
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(request.headers.get("Authorization") ?? "");
  return match?.[1] ?? null;
}

/**
 * Creates `authenticate` for createServiceHandler: the user of the request's bearer access token,
 * `{ id: sub, externalUserId: sub }`, or null (the handler answers 401) — also for a token with less
 * than `minimumRemainingSeconds` left. When the project's keys cannot be had it throws a 503
 * HttpProblem (the handler answers 503 with the request id and reports the cause to `onError`),
 * never taken for "signed out".
 *
 * @example
 * const authenticate = createSupabaseAuthenticate({ supabaseUrl: env.SUPABASE_URL });
 * createServiceHandler({ ..., authenticate });
 */
export function createSupabaseAuthenticate(
  options: SupabaseAuthenticateOptions,
): (request: Request) => Promise<AuthenticatedUser | null> {
  const verify = createSupabaseAccessTokenVerifier(options);
  const minimumRemainingSeconds = options.minimumRemainingSeconds ?? 60;
  return async (request) => {
    const token = bearerToken(request);
    if (token === null) return null;
    let claims: SupabaseAccessTokenClaims | null;
    try {
      claims = await verify(token);
    } catch (error) {
      if (!(error instanceof SupabaseKeysUnavailableError)) throw error;
      throw new HttpProblem(
        503,
        "auth_unavailable",
        "Sign-in cannot be checked right now; try again shortly.",
        {
          cause: error,
        },
      );
    }
    if (claims === null) return null;
    // The clock tolerance for skew between Supabase and this server applies to the margin too.
    const remainingSeconds = claims.exp + clockToleranceSeconds - Date.now() / 1000;
    if (remainingSeconds < minimumRemainingSeconds) return null;
    return { id: claims.sub, externalUserId: claims.sub };
  };
}
