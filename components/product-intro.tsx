/** The home page's introduction: what Cited does, in two sentences. */
export function ProductIntro() {
  return (
    <section className="flex flex-col gap-4">
      <h1 className="text-3xl font-semibold">Cited</h1>
      <p className="text-lg text-stone-700">
        Ask questions of your documents. Every claim in an answer links to the exact lines of the page that
        support it; when nothing does, Cited says so instead of guessing.
      </p>
    </section>
  );
}
