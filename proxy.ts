/**
 * Next.js's proxy (formerly middleware): in Supabase mode it refreshes the session cookie before
 * pages render, and in embedded mode it does nothing. It never decides who may see what.
 */
import type { NextRequest } from "next/server";
import { NextResponse } from "next/server";
import { supabaseProjectSettings } from "@/lib/env";
import { updateSession } from "@/lib/supabase/proxy";

export async function proxy(request: NextRequest): Promise<NextResponse> {
  const project = supabaseProjectSettings(process.env);
  if (project === null) return NextResponse.next();
  return updateSession(request, project);
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
