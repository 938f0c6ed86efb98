/**
 * A Supabase client for one server render, server action or route handler, signed in with the
 * session in the request's cookies. A new one per request: a shared one would mix users' sessions.
 */
import "server-only";
import { createServerClient } from "@supabase/ssr";
import type { SupabaseClient } from "@supabase/supabase-js";
import { cookies } from "next/headers";
import type { SupabaseProject } from "./project.ts";

export async function createSupabaseServerClient(project: SupabaseProject): Promise<SupabaseClient> {
  const jar = await cookies();
  return createServerClient(project.url, project.publishableKey, {
    cookies: {
      getAll: () => jar.getAll(),
      setAll(cookiesToSet) {
        try {
          for (const { name, value, options } of cookiesToSet) jar.set(name, value, options);
        } catch (error) {
          // A server component may not set cookies (Next.js refuses with this message); the proxy
          // refreshes the session on the next request instead. Anything else is a real failure.
          if (!(error instanceof Error && error.message.includes("Server Action or Route Handler")))
            throw error;
        }
      },
    },
  });
}
