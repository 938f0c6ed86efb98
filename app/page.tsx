export default function HomePage() {
  return (
    <main className="mx-auto flex max-w-2xl flex-col gap-4 px-6 py-16">
      <h1 className="text-3xl font-semibold">Cited</h1>
      <p className="text-lg text-stone-700">
        Ask questions of your documents. Every claim in an answer links to the exact lines of the page that
        support it; when nothing does, Cited says so instead of guessing.
      </p>
      <p className="text-sm text-stone-500">
        The conversation view arrives with the reference host app; the service runs beside this app on port
        8787.
      </p>
    </main>
  );
}
