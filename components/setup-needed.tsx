import { citedPitch } from "./welcome";

/** What the app shows instead of its pages while its settings are missing: what Cited is, and what to set. */
export function SetupNeeded({ problem }: { problem: string }) {
  return (
    <main className="mx-auto flex min-h-screen max-w-2xl flex-col justify-center gap-6 px-6 py-12">
      <h1 className="text-3xl font-semibold">Cited</h1>
      <p className="text-lg text-stone-700 dark:text-stone-300">{citedPitch}</p>
      <section
        aria-labelledby="setup-title"
        className="rounded-xl border border-amber-600 bg-amber-50 p-5 dark:bg-amber-950"
        data-testid="setup-needed"
      >
        <h2 id="setup-title" className="text-lg font-semibold">
          This app is not set up yet
        </h2>
        <p className="mt-2 text-sm">{problem}</p>
        <p className="mt-2 text-sm">
          <code>npm run dev</code> writes them for a local demo service into <code>.env.local</code>; every
          setting is described in <code>.env.example</code>.
        </p>
      </section>
    </main>
  );
}
