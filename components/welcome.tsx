/** The frame of the pages a person meets before signing in: what Cited is, then the form. */
import type { ReactNode } from "react";

/** What Cited is, in the words every page before sign-in opens with. */
export const citedPitch =
  "Ask questions of your documents. Every claim in an answer links to the exact lines of the page that support it; when nothing does, Cited says so instead of guessing.";

export function Welcome({ children }: { children: ReactNode }) {
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-6 px-6 py-12">
      <div className="flex flex-col gap-2">
        <h1 className="text-3xl font-semibold">Cited</h1>
        <p className="text-stone-700 dark:text-stone-300">{citedPitch}</p>
      </div>
      {children}
    </main>
  );
}

/** A notice above the form about what just happened (signed out, a link that did not work). */
export function WelcomeNotice({ children }: { children: ReactNode }) {
  return (
    <p
      role="alert"
      data-testid="error-banner"
      className="rounded-lg border border-amber-600 bg-amber-50 p-3 text-sm dark:bg-amber-950"
    >
      {children}
    </p>
  );
}
