/**
 * Who is signed in. The development sign-in keeps the user in a signed session cookie; this is
 * the one module that changes when Supabase Auth is configured (issue 12).
 */
import "server-only";
import { cookies } from "next/headers";
import type { AuthenticatedUser } from "@/sdk/server/index.ts";
import { devSignInAllowed, serverEnvironment } from "./env.ts";
import { type SessionUser, sessionCookieName, verifySession } from "./session.ts";

/**
 * The user of a request to the route handler, or null (the handler answers 401). Next.js scopes
 * `cookies()` to the request being handled, so the cookie is read from it.
 */
export async function authenticate(): Promise<AuthenticatedUser | null> {
  const user = await currentUser();
  return user ? { id: user.id, externalUserId: user.id } : null;
}

/**
 * The signed-in user of the page being rendered, or null. A development session counts only while
 * the development sign-in is allowed: switching it off signs everyone out at once.
 */
export async function currentUser(): Promise<SessionUser | null> {
  if (!devSignInAllowed(serverEnvironment())) return null;
  const jar = await cookies();
  return verifySession(jar.get(sessionCookieName)?.value, secret());
}

/** Backend, tenant and account: keys the browser's caches of evidence. */
export function authScopeOf(user: SessionUser): string {
  return `cited-app:dev:${user.id}`;
}

function secret(): string {
  return serverEnvironment().CITED_SESSION_SECRET;
}
