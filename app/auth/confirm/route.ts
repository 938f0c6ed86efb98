/**
 * Where an emailed link (sign-in link, address confirmation) lands: the link's one-time token or
 * code becomes a session in this browser's cookies, then the person goes on to the chat. Supabase
 * mode only.
 */
import type { AuthError } from "@supabase/supabase-js";
import { redirect } from "next/navigation";
import type { NextRequest } from "next/server";
import { z } from "zod";
import { supabaseProject } from "@/lib/env";
import { createSupabaseServerClient } from "@/lib/supabase/server";

const linkSchema = z.union([
  // PKCE: Supabase Auth verified the link and sends a code this browser's verifier cookie redeems.
  z.object({ code: z.string().min(1) }),
  // An email template pointing here directly ({{ .TokenHash }}), as the @supabase/ssr guide sets up.
  z.object({
    token_hash: z.string().min(1),
    type: z.enum(["signup", "invite", "magiclink", "recovery", "email_change", "email"]),
  }),
]);

/** Only a path of this app: `next` comes from a link anyone could craft, so no open redirect. */
function nextPath(next: string | null): string {
  if (next === null || !next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\"))
    return "/chat";
  return next;
}

export async function GET(request: NextRequest): Promise<Response> {
  const project = supabaseProject();
  if (project === null) return new Response("Not found", { status: 404 });
  const { searchParams } = request.nextUrl;
  const link = linkSchema.safeParse(Object.fromEntries(searchParams));
  // An expired or reused link comes back from Supabase Auth as `error`/`error_code` instead.
  if (!link.success) redirect("/sign-in?link=invalid");
  const supabase = await createSupabaseServerClient(project);
  const { error }: { error: AuthError | null } =
    "code" in link.data
      ? await supabase.auth.exchangeCodeForSession(link.data.code)
      : await supabase.auth.verifyOtp({ type: link.data.type, token_hash: link.data.token_hash });
  if (error) {
    console.error("sign-in link", error);
    redirect("/sign-in?link=invalid");
  }
  redirect(nextPath(searchParams.get("next")));
}
