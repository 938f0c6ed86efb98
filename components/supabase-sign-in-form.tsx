"use client";
/** Supabase sign-in: email and password, or a one-time link sent to the email address. */
import Link from "next/link";
import { useActionState, useState } from "react";
import { type AccountFormState, initialAccountFormState } from "@/app/auth/account-form";
import { signInWithSupabase } from "@/app/auth/actions";
import { AccountFeedback, EmailField, PasswordField } from "./account-fields";

export function SupabaseSignInForm() {
  const [state, action, pending] = useActionState<AccountFormState, FormData>(
    signInWithSupabase,
    initialAccountFormState,
  );
  // Which button was pressed, so only that one says it is working.
  const [intent, setIntent] = useState<"password" | "link">("password");
  return (
    <form
      action={action}
      data-testid="sign-in-form"
      aria-busy={pending}
      className="flex flex-col gap-4 rounded-xl border border-stone-300 bg-white p-6 shadow-sm dark:border-stone-700 dark:bg-stone-900"
    >
      <h2 className="text-lg font-semibold">Sign in</h2>
      <EmailField state={state} />
      <PasswordField state={state} autoComplete="current-password" />
      <AccountFeedback state={state} />
      <button
        type="submit"
        name="intent"
        value="password"
        disabled={pending}
        onClick={() => setIntent("password")}
        className="rounded-lg bg-blue-700 px-4 py-2 font-semibold text-white hover:bg-blue-800 disabled:opacity-60"
      >
        {pending && intent === "password" ? "Signing in…" : "Sign in"}
      </button>
      <div className="flex items-center gap-3 text-sm text-stone-600 dark:text-stone-400">
        <span aria-hidden="true" className="h-px flex-1 bg-stone-300 dark:bg-stone-700" />
        or, without a password
        <span aria-hidden="true" className="h-px flex-1 bg-stone-300 dark:bg-stone-700" />
      </div>
      <button
        type="submit"
        name="intent"
        value="link"
        // Only the email matters for a link; the server checks it.
        formNoValidate
        disabled={pending}
        onClick={() => setIntent("link")}
        className="rounded-lg border border-stone-400 px-4 py-2 font-semibold hover:border-blue-700 disabled:opacity-60 dark:border-stone-600 dark:hover:border-blue-400"
      >
        {pending && intent === "link" ? "Sending the link…" : "Email me a sign-in link"}
      </button>
      <p className="text-sm text-stone-700 dark:text-stone-300">
        New here?{" "}
        <Link href="/sign-up" className="font-medium text-blue-700 underline dark:text-blue-400">
          Create an account
        </Link>
      </p>
    </form>
  );
}
