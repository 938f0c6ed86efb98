"use client";
/** The development sign-in: pick a demo user or type a name; no password, never for production. */
import { useActionState } from "react";
import { type SignInState, signIn } from "@/app/sign-in/actions";

const demoUsers = ["alice", "bob"];

export function SignInForm() {
  const [state, action, pending] = useActionState<SignInState, FormData>(signIn, {
    error: null,
    userName: "",
  });
  return (
    <form
      action={action}
      data-testid="sign-in-form"
      className="flex flex-col gap-4 rounded-xl border border-stone-300 bg-white p-6 shadow-sm dark:border-stone-700 dark:bg-stone-900"
    >
      <h2 className="text-lg font-semibold">Development sign-in</h2>
      <p className="text-sm text-stone-600 dark:text-stone-400">
        No password: anyone who can reach this server can pick any name. Each name has its own conversations.
      </p>
      <label className="flex flex-col gap-1 text-sm font-medium">
        User name
        <input
          name="userName"
          defaultValue={state.userName}
          autoComplete="username"
          maxLength={64}
          aria-invalid={state.error ? true : undefined}
          aria-describedby={state.error ? "sign-in-error" : undefined}
          className="rounded-lg border border-stone-400 bg-white px-3 py-2 text-base font-normal dark:border-stone-600 dark:bg-stone-950"
        />
      </label>
      {state.error ? (
        <p id="sign-in-error" role="alert" className="text-sm text-red-700 dark:text-red-400">
          {state.error}
        </p>
      ) : null}
      <button
        type="submit"
        disabled={pending}
        className="rounded-lg bg-blue-700 px-4 py-2 font-semibold text-white hover:bg-blue-800 disabled:opacity-60"
      >
        {pending ? "Signing in…" : "Sign in"}
      </button>
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="text-stone-600 dark:text-stone-400">Or try a demo user:</span>
        {demoUsers.map((name) => (
          <button
            key={name}
            type="submit"
            name="demoUser"
            value={name}
            disabled={pending}
            className="rounded-full border border-stone-400 px-3 py-1 hover:border-blue-700 dark:border-stone-600"
          >
            {name}
          </button>
        ))}
      </div>
    </form>
  );
}
