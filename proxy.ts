/**
 * Next.js's proxy (formerly middleware): it gives each page a Content-Security-Policy with a fresh
 * nonce, and in Supabase mode refreshes the session cookie before pages render. It never decides who
 * may see what.
 */
import type { NextRequest } from "next/server";
import { NextResponse } from "next/server";
import { supabaseProjectSettings } from "@/lib/env";
import { contentSecurityPolicy, randomNonce, strictTransportSecurity } from "@/lib/security-headers";
import { servedOverHttps } from "@/lib/supabase/project";
import { updateSession } from "@/lib/supabase/proxy";

export async function proxy(request: NextRequest): Promise<NextResponse> {
  const project = supabaseProjectSettings(process.env);
  const policy = contentSecurityPolicy(randomNonce(), {
    development: process.env.NODE_ENV === "development",
    supabaseUrl: project?.url ?? null,
  });
  // Next.js reads the nonce for its own scripts from the request's policy.
  request.headers.set("Content-Security-Policy", policy);
  const response = project === null ? NextResponse.next({ request }) : await updateSession(request, project);
  response.headers.set("Content-Security-Policy", policy);
  if (servedOverHttps(process.env.CITED_APP_ORIGIN ?? "")) {
    response.headers.set("Strict-Transport-Security", strictTransportSecurity);
  }
  return response;
}

export const config = {
  // Pages, server actions and the magic link's landing; not static files, and not the route handler,
  // which the browser calls with a bearer token and which refreshing cookies there would only race.
  // Not the console's route handlers either: they check the session themselves, and a request a proxy
  // runs for has its body buffered and cut at 10 MiB, which would break large uploads.
  matcher: [
    "/((?!_next/static|_next/image|api/cited/|console/api/|favicon.ico|icon.svg|.*\\.(?:svg|png|jpg|jpeg|gif|webp)$).*)",
  ],
};
