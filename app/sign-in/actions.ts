"use server";
/** Development sign-in and sign-out: the signed session cookie is set and cleared here only. */
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { devSignInAllowed, serverEnvironment } from "@/lib/env";
import { sessionCookieName, sessionCookieOptions, signSession, userNameSchema } from "@/lib/session";

export interface SignInState {
  error: string | null;
  userName: string;
}

export async function signIn(_previous: SignInState, form: FormData): Promise<SignInState> {
  const environment = serverEnvironment();
  const userName = String(form.get("demoUser") ?? form.get("userName") ?? "");
  if (!devSignInAllowed(environment)) {
    return { error: "The development sign-in is switched off on this server.", userName };
  }
  const parsed = userNameSchema.safeParse(userName);
  if (!parsed.success) return { error: parsed.error.issues[0]?.message ?? "Invalid user name.", userName };
  const token = await signSession({ id: parsed.data }, environment.CITED_SESSION_SECRET);
  const secure = environment.CITED_APP_ORIGIN.startsWith("https:");
  (await cookies()).set(sessionCookieName, token, { ...sessionCookieOptions, secure });
  redirect("/chat");
}

export async function signOut(): Promise<void> {
  (await cookies()).delete(sessionCookieName);
  redirect("/sign-in");
}
