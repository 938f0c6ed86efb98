/**
 * Where an emailed link (sign-in link, address confirmation) lands: the link's one-time token or
 * code becomes a session in this browser's cookies, then the person goes on to the chat. Supabase
 * mode only.
 */
import type { AuthError } from "@supabase/supabase-js";
import { type NextRequest, NextResponse } from "next/server";
import { z } from "zod";
import { serverEnvironment, supabaseProject } from "@/lib/env";
import { safeNextUrl } from "@/lib/next-path";
import { createSupabaseServerClient } from "@/lib/supabase/server";

const linkSchema = z.union([
  // PKCE: Supabase Auth verified the link and sends a code this browser's verifier cookie redeems.
  z.object({ code: z.string().min(1) }),
  // An email template pointing here directly ({{ .TokenHash }}), as the @supabase/ssr guide sets up.
  // Only links that sign someone in: a password reset (`recovery`) or an address change would need
  // pages this app does not have, so they are refused rather than half done.
  z.object({
    token_hash: z.string().min(1),
    type: z.enum(["signup", "magiclink", "email"]),
  }),
]);

/**
 * A redirect that may carry the new session's cookies (Next.js adds those set through `cookies()`),
 * so no cache may keep it.
 */
function redirectTo(url: string): NextResponse {
  const response = NextResponse.redirect(url, 303);
  response.headers.set("Cache-Control", "private, no-store");
  return response;
}

export async function GET(request: NextRequest): Promise<Response> {
  const project = supabaseProject();
  if (project === null) return new Response("Not found", { status: 404 });
  const appOrigin = serverEnvironment().CITED_APP_ORIGIN;
  const { searchParams } = request.nextUrl;
  const invalid = new URL("/sign-in?link=invalid", appOrigin).href;
  const link = linkSchema.safeParse(Object.fromEntries(searchParams));
  // An expired or reused link comes back from Supabase Auth as `error`/`error_code` instead.
  if (!link.success) return redirectTo(invalid);
  const supabase = await createSupabaseServerClient(project);
  const { error }: { error: AuthError | null } =
    "code" in link.data
      ? await supabase.auth.exchangeCodeForSession(link.data.code)
      : await supabase.auth.verifyOtp({ type: link.data.type, token_hash: link.data.token_hash });
  if (error) {
    console.error("sign-in link", error);
    return redirectTo(invalid);
  }
  return redirectTo(safeNextUrl(searchParams.get("next"), appOrigin));
}
