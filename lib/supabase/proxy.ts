/**
 * Keeps the Supabase session cookie fresh on each page request, as @supabase/ssr asks of a proxy.
 * It is not where access is decided: pages check `getClaims()` and the route handler verifies the
 * bearer token itself.
 */
import { createServerClient } from "@supabase/ssr";
import { type NextRequest, NextResponse } from "next/server";
import { type SupabaseProject, supabaseCookieOptions } from "./project.ts";

export async function updateSession(request: NextRequest, project: SupabaseProject): Promise<NextResponse> {
  let response = NextResponse.next({ request });
  const supabase = createServerClient(project.url, project.publishableKey, {
    cookieOptions: supabaseCookieOptions(project),
    cookies: {
      getAll: () => request.cookies.getAll(),
      setAll(cookiesToSet, headers) {
        for (const { name, value } of cookiesToSet) request.cookies.set(name, value);
        response = NextResponse.next({ request });
        for (const { name, value, options } of cookiesToSet) response.cookies.set(name, value, options);
        // No cache may keep a response that carries someone's session.
        for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
      },
    },
  });
  // Nothing may run between creating the client and this call: it is what refreshes an expired
  // session (and writes the new cookies through setAll above).
  await supabase.auth.getClaims();
  // Returned as built, so the browser and the page below get the same, refreshed cookies.
  return response;
}
