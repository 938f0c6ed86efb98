"use server";
/**
 * Development sign-in, and sign-out in either mode: the development session cookie is set and
 * cleared here only; a Supabase session is ended through Supabase Auth.
 */
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { devSignInAllowed, serverEnvironment } from "@/lib/env";
import { sessionCookieName, sessionCookieOptions, signSession, userNameSchema } from "@/lib/session";
import { servedOverHttps } from "@/lib/supabase/project";
import { createSupabaseServerClient } from "@/lib/supabase/server";

export interface SignInState {
  error: string | null;
  userName: string;
}

export async function signIn(_previous: SignInState, form: FormData): Promise<SignInState> {
  const environment = serverEnvironment();
  const userName = String(form.get("demoUser") ?? form.get("userName") ?? "");
  if (!devSignInAllowed(environment) || environment.auth.kind !== "embedded") {
    return { error: "The development sign-in is switched off on this server.", userName };
  }
  const parsed = userNameSchema.safeParse(userName);
  if (!parsed.success) return { error: parsed.error.issues[0]?.message ?? "Invalid user name.", userName };
  const token = await signSession({ id: parsed.data }, environment.auth.sessionSecret);
  const secure = servedOverHttps(environment.CITED_APP_ORIGIN);
  (await cookies()).set(sessionCookieName, token, { ...sessionCookieOptions, secure });
  redirect("/chat");
}

export async function signOut(): Promise<void> {
  const { auth } = serverEnvironment();
  if (auth.kind === "supabase") {
    // This browser's session only: the person's other devices stay signed in. supabase-js removes
    // the session cookies before it asks Supabase Auth to revoke the refresh token, so an error
    // here means only that the revocation failed: this browser is signed out all the same.
    const { error } = await (await createSupabaseServerClient(auth)).auth.signOut({ scope: "local" });
    if (error) console.error("sign-out: Supabase Auth did not revoke the session's refresh token", error);
  } else {
    (await cookies()).delete(sessionCookieName);
  }
  redirect("/sign-in");
}
