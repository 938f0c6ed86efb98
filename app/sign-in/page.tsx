import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { connection } from "next/server";
import { SignInForm } from "@/components/sign-in-form";
import { currentUser } from "@/lib/auth";
import { devSignInAllowed, serverEnvironment, settingsProblem } from "@/lib/env";

export const metadata: Metadata = { title: "Sign in · Cited" };

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await connection();
  if (settingsProblem()) redirect("/");
  if (await currentUser()) redirect("/chat");
  const signedOut = (await searchParams)["signed-out"] !== undefined;
  const allowed = devSignInAllowed(serverEnvironment());
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-6 px-6 py-12">
      <div className="flex flex-col gap-2">
        <h1 className="text-3xl font-semibold">Cited</h1>
        <p className="text-stone-700 dark:text-stone-300">
          Ask questions of your documents. Every claim in an answer links to the exact lines of the page that
          support it; when nothing does, Cited says so instead of guessing.
        </p>
      </div>
      {signedOut ? (
        <p
          role="alert"
          data-testid="error-banner"
          className="rounded-lg border border-amber-600 bg-amber-50 p-3 text-sm dark:bg-amber-950"
        >
          You were signed out. Sign in again to go on; your conversations are kept.
        </p>
      ) : null}
      {allowed ? (
        <SignInForm />
      ) : (
        <p role="alert" className="rounded-lg border border-amber-600 bg-amber-50 p-4 dark:bg-amber-950">
          The development sign-in is switched off on this server (NODE_ENV=production). Configure Supabase
          Auth, or set CITED_DEV_SIGN_IN=allow for a demo.
        </p>
      )}
    </main>
  );
}
