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
import type { AuthenticatedUser } from "../../server/index.ts";

export interface SupabaseAuthenticateOptions {
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
 * handler answers 500 instead of signing a user out because the key server hiccuped.
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
];

interface Verifier {
  key: JWTVerifyGetKey;
  algorithms: string[];
  issuer: string;
  audience: string;
}

function createVerifier(options: SupabaseAuthenticateOptions): Verifier {
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
    key: (header, token) => (secret && header.alg === "HS256" ? secret : publicKeys(header, token)),
    algorithms: secret ? ["HS256", ...asymmetricAlgorithms] : asymmetricAlgorithms,
    issuer,
    audience: options.audience ?? "authenticated",
  };
}

/** One verifier (and so one JWKS cache) per options object. */
const verifiers = new WeakMap<SupabaseAuthenticateOptions, Verifier>();

/**
 * The claims of a valid access token of a signed-in user, or null for any token that is not one
 * (expired, not yet valid, another issuer or audience, a bad signature, `alg: none`, an unknown key,
 * the anon role, no `sub`). Throws when the keys cannot be had (JWKS unreachable or malformed).
 * Pass the same options object each time to reuse its JWKS cache.
 */
export async function verifySupabaseAccessToken(
  token: string,
  options: SupabaseAuthenticateOptions,
): Promise<SupabaseAccessTokenClaims | null> {
  let verifier = verifiers.get(options);
  if (!verifier) {
    verifier = createVerifier(options);
    verifiers.set(options, verifier);
  }
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
    if (tokenErrors.some((type) => error instanceof type)) return null;
    throw error;
  }
  const claims = claimsSchema.safeParse(payload);
  return claims.success ? { ...payload, ...claims.data } : null;
}

/** The token of `Authorization: Bearer <token>`, or null when the header is missing or malformed. */
export function bearerToken(request: Request): string | null {
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(request.headers.get("Authorization") ?? "");
  return match?.[1] ?? null;
}

/**
 * Creates `authenticate` for createServiceHandler: the user of the request's bearer access token,
 * `{ id: sub, externalUserId: sub }`, or null (the handler answers 401). A failure to get the
 * project's keys is thrown (the handler answers 500), never taken for "signed out".
 *
 * @example
 * const authenticate = createSupabaseAuthenticate({ supabaseUrl: env.SUPABASE_URL });
 * createServiceHandler({ ..., authenticate });
 */
export function createSupabaseAuthenticate(
  options: SupabaseAuthenticateOptions,
): (request: Request) => Promise<AuthenticatedUser | null> {
  const settings = { ...options };
  return async (request) => {
    const token = bearerToken(request);
    const claims = token === null ? null : await verifySupabaseAccessToken(token, settings);
    return claims ? { id: claims.sub, externalUserId: claims.sub } : null;
  };
}
