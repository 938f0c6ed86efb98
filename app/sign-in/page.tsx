import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { connection } from "next/server";
import { SignInForm } from "@/components/sign-in-form";
import { SupabaseSignInForm } from "@/components/supabase-sign-in-form";
import { Welcome, WelcomeNotice } from "@/components/welcome";
import { currentUser } from "@/lib/auth";
import { devSignInAllowed, serverEnvironment, settingsProblem } from "@/lib/env";

export const metadata: Metadata = { title: "Sign in · Cited" };

/** Supabase mode: email and password or an emailed link. Embedded mode: the development sign-in. */
export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await connection();
  if (settingsProblem()) redirect("/");
  if (await currentUser()) redirect("/chat");
  const query = await searchParams;
  const environment = serverEnvironment();
  return (
    <Welcome>
      {query["signed-out"] !== undefined ? (
        <WelcomeNotice>
          You were signed out. Sign in again to go on; your conversations are kept.
        </WelcomeNotice>
      ) : null}
      {query.link === "invalid" ? (
        <WelcomeNotice>
          That sign-in link has expired or was used already. Ask for a new one below.
        </WelcomeNotice>
      ) : null}
      {environment.auth.kind === "supabase" ? (
        <SupabaseSignInForm />
      ) : devSignInAllowed(environment) ? (
        <SignInForm />
      ) : (
        <p role="alert" className="rounded-lg border border-amber-600 bg-amber-50 p-4 dark:bg-amber-950">
          The development sign-in is switched off on this server (NODE_ENV=production). Configure Supabase
          Auth, or set CITED_DEV_SIGN_IN=allow for a demo.
        </p>
      )}
    </Welcome>
  );
}
