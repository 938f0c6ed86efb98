"use client";
/** Sign-out: forgets this account's cached PDF evidence in the tab, then ends the session on the server. */
import { signOut } from "@/app/sign-in/actions";
import { forgetPdfSlices } from "@/sdk/react/index.ts";

export function SignOutButton({ authScope }: { authScope: string }) {
  return (
    <form action={signOut} onSubmit={() => forgetPdfSlices(authScope)}>
      <button
        type="submit"
        className="whitespace-nowrap rounded-lg border border-stone-400 px-2 py-1 hover:border-blue-700 sm:px-3 dark:border-stone-600"
      >
        Sign out
      </button>
    </form>
  );
}
