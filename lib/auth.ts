/**
 * Who is signed in. Embedded mode: the development sign-in's signed session cookie. Supabase mode:
 * Supabase Auth, its session cookie for pages and the access token as a bearer header for the
 * route handler. The rest of the app only sees `AppUser` and `authenticate`.
 */
import "server-only";
import { isAuthRetryableFetchError } from "@supabase/supabase-js";
import { cookies } from "next/headers";
import { z } from "zod";
import { createSupabaseAuthenticate } from "@/sdk/adapters/supabase/index.ts";
import type { AuthenticatedUser } from "@/sdk/server/index.ts";
import { type AuthMode, devSignInAllowed, serverEnvironment } from "./env.ts";
import { sessionCookieName, verifySession } from "./session.ts";
import { createSupabaseServerClient } from "./supabase/server.ts";

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
    return createSupabaseAuthenticate({
      supabaseUrl: auth.url,
      ...(auth.jwtSecret === undefined ? {} : { jwtSecret: auth.jwtSecret }),
    });
  }
  return async () => {
    // Next.js scopes `cookies()` to the request being handled.
    const user = await currentUser();
    return user ? { id: user.id, externalUserId: user.id } : null;
  };
}

/** The claims a page relies on, from a verified Supabase access token. */
const supabaseClaimsSchema = z.object({
  sub: z.string().min(1),
  role: z.literal("authenticated"),
  email: z.string().optional(),
});

/**
 * The signed-in user of the page being rendered, or null. Supabase: `getClaims()` verifies the
 * session's access token (locally against the project's JWKS). Embedded: a development session
 * counts only while the development sign-in is allowed, so switching it off signs everyone out.
 */
export async function currentUser(): Promise<AppUser | null> {
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
    const claims = supabaseClaimsSchema.safeParse(data?.claims);
    if (!claims.success) return null;
    return { id: claims.data.sub, name: claims.data.email ?? claims.data.sub };
  }
  if (!devSignInAllowed(environment)) return null;
  const user = await devSessionUser(auth.sessionSecret);
  return user ? { id: user.id, name: user.id } : null;
}

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
