"use client";
/** Supabase sign-up: an email and a password; the project may ask the person to confirm the address first. */
import Link from "next/link";
import { useActionState } from "react";
import {
  type AccountFormState,
  initialAccountFormState,
  minimumPasswordLength,
} from "@/app/auth/account-form";
import { signUpWithSupabase } from "@/app/auth/actions";
import { AccountFeedback, EmailField, PasswordField } from "./account-fields";

export function SignUpForm() {
  const [state, action, pending] = useActionState<AccountFormState, FormData>(
    signUpWithSupabase,
    initialAccountFormState,
  );
  return (
    <form
      action={action}
      data-testid="sign-up-form"
      aria-busy={pending}
      className="flex flex-col gap-4 rounded-xl border border-stone-300 bg-white p-6 shadow-sm dark:border-stone-700 dark:bg-stone-900"
    >
      <h2 className="text-lg font-semibold">Create an account</h2>
      <EmailField state={state} />
      <PasswordField
        state={state}
        autoComplete="new-password"
        minLength={minimumPasswordLength}
        hint={`At least ${minimumPasswordLength} characters.`}
      />
      <AccountFeedback state={state} />
      <button
        type="submit"
        disabled={pending}
        className="rounded-lg bg-blue-700 px-4 py-2 font-semibold text-white hover:bg-blue-800 disabled:opacity-60"
      >
        {pending ? "Creating your account…" : "Create account"}
      </button>
      <p className="text-sm text-stone-700 dark:text-stone-300">
        Already have an account?{" "}
        <Link href="/sign-in" className="font-medium text-blue-700 underline dark:text-blue-400">
          Sign in
        </Link>
      </p>
    </form>
  );
}
