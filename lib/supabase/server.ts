/**
 * A Supabase client for one server render, server action or route handler, signed in with the
 * session in the request's cookies. A new one per request: a shared one would mix users' sessions.
 */
import "server-only";
import { createServerClient } from "@supabase/ssr";
import type { SupabaseClient } from "@supabase/supabase-js";
import { cookies } from "next/headers";
import { type SupabaseProject, supabaseCookieOptions } from "./project.ts";

export async function createSupabaseServerClient(project: SupabaseProject): Promise<SupabaseClient> {
  const jar = await cookies();
  return createServerClient(project.url, project.publishableKey, {
    cookieOptions: supabaseCookieOptions(project),
    cookies: {
      getAll: () => jar.getAll(),
      // The second argument, @supabase/ssr's no-store headers, cannot be set from here: Next.js
      // already marks server actions' responses no-store, and the one route handler that signs
      // people in (/auth/confirm) sets Cache-Control on its own response.
      setAll(cookiesToSet) {
        try {
          for (const { name, value, options } of cookiesToSet) jar.set(name, value, options);
        } catch (error) {
          // A server component may not set cookies; the proxy refreshes the session on the next
          // request instead. Anything else is a real failure. Next.js's ReadonlyRequestCookiesError
          // is internal (no export, no name of its own), so its message is all there is to recognise.
          if (!(error instanceof Error && error.message.includes("Server Action or Route Handler")))
            throw error;
        }
      },
    },
  });
}
