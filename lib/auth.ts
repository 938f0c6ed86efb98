/**
 * Who is signed in. Embedded mode: the development sign-in's signed session cookie. Supabase mode:
 * Supabase Auth, its session cookie for pages and the access token as a bearer header for the
 * route handler. The rest of the app only sees `AppUser` and `authenticate`.
 */
import "server-only";
import { isAuthRetryableFetchError } from "@supabase/supabase-js";
import { decodeJwt } from "jose";
import { cookies } from "next/headers";
import { cache } from "react";
import { bearerToken, createSupabaseAuthenticate } from "@/sdk/adapters/supabase/index.ts";
import type { AuthenticatedUser } from "@/sdk/server/index.ts";
import { type AuthMode, devSignInAllowed, serverEnvironment } from "./env.ts";
import { sessionCookieName, verifySession } from "./session.ts";
import { createSupabaseServerClient } from "./supabase/server.ts";
import { signedInUserOf } from "./supabase/signed-in-user.ts";

/** The signed-in person as pages show them: `id` keys their conversations, `name` is shown. */
export interface AppUser {
  id: string;
  name: string;
}

/**
 * The route handler's `authenticate` for this mode. Supabase: the access token the browser's
 * authenticated fetch attaches, verified against the project's keys (or its legacy JWT secret);
 * never the proxy's word. Embedded: the development session of the request being handled.
 */
export function createAuthenticate(auth: AuthMode): (request: Request) => Promise<AuthenticatedUser | null> {
  if (auth.kind === "supabase") {
    const authenticate = createSupabaseAuthenticate({
      supabaseUrl: auth.url,
      ...(auth.jwtSecret === undefined ? {} : { jwtSecret: auth.jwtSecret }),
    });
    return async (request) => {
      const user = await authenticate(request);
      if (user === null) return null;
      // The token was verified just above, so its claims can be read as they are.
      const token = bearerToken(request);
      return token !== null && signedInUserOf(decodeJwt(token)) !== null ? user : null;
    };
  }
  return async () => {
    // Next.js scopes `cookies()` to the request being handled.
    const user = await currentUser();
    return user ? { id: user.id, externalUserId: user.id } : null;
  };
}

/**
 * The signed-in user of the page being rendered, or null. Supabase: `getClaims()` verifies the
 * session's access token (locally against the project's JWKS; a legacy HS256 project asks Supabase
 * Auth). Embedded: a development session counts only while the development sign-in is allowed, so
 * switching it off signs everyone out. Once per request: the layout and the page both ask.
 */
export const currentUser = cache(async (): Promise<AppUser | null> => {
  const environment = serverEnvironment();
  const { auth } = environment;
  if (auth.kind === "supabase") {
    const supabase = await createSupabaseServerClient(auth);
    const { data, error } = await supabase.auth.getClaims();
    if (error) {
      // Supabase Auth not answering is an outage to show, not a reason to sign the person out.
      if (isAuthRetryableFetchError(error)) throw error;
      return null;
    }
    return signedInUserOf(data?.claims);
  }
  if (!devSignInAllowed(environment)) return null;
  const user = await devSessionUser(auth.sessionSecret);
  return user ? { id: user.id, name: user.id } : null;
});

async function devSessionUser(secret: string) {
  const jar = await cookies();
  return verifySession(jar.get(sessionCookieName)?.value, secret);
}

/**
 * Backend, tenant and account: keys the browser's caches of evidence, so one account's PDF slices
 * are never shown to another, nor across two Supabase projects.
 */
export function authScopeOf(user: AppUser): string {
  const { auth } = serverEnvironment();
  if (auth.kind === "supabase") return `cited-app:supabase:${new URL(auth.url).host}:${user.id}`;
  return `cited-app:dev:${user.id}`;
}
