/** The development sign-in's session: a signed, short JWT in an httpOnly, SameSite=Lax cookie. */
import "server-only";
import { errors, jwtVerify, SignJWT } from "jose";
import { z } from "zod";

export const sessionCookieName = "cited_session";
/** A week: long enough for a demo, short enough that a leaked cookie dies. */
export const sessionLifetimeSeconds = 7 * 24 * 60 * 60;

export const userNameSchema = z
  .string()
  .trim()
  .min(1, "Type a user name.")
  .max(64, "A user name has at most 64 characters.")
  .regex(/^[\p{L}\p{N}._@-]+$/u, "Use letters, digits, dots, dashes, underscores or @, without spaces.");

export interface SessionUser {
  id: string;
}

const keyOf = (secret: string) => new Uint8Array(Buffer.from(secret, "hex"));

export function signSession(user: SessionUser, secret: string, now = new Date()): Promise<string> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(user.id)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + sessionLifetimeSeconds)
    .setIssuer("cited-dev-sign-in")
    .sign(keyOf(secret));
}

/** The user of a session cookie, or null when it is missing, forged, expired or names no valid user. */
export async function verifySession(token: string | undefined, secret: string): Promise<SessionUser | null> {
  if (!token) return null;
  try {
    const { payload } = await jwtVerify(token, keyOf(secret), {
      algorithms: ["HS256"],
      issuer: "cited-dev-sign-in",
    });
    const id = userNameSchema.safeParse(payload.sub);
    return id.success ? { id: id.data } : null;
  } catch (error) {
    // A bad signature, an expired or malformed token: each means "signed out".
    if (error instanceof errors.JOSEError) return null;
    throw error;
  }
}

export const sessionCookieOptions = {
  httpOnly: true,
  sameSite: "lax",
  path: "/",
  maxAge: sessionLifetimeSeconds,
} as const;
