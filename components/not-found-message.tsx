/** What a person sees at an address with nothing at it: said in words, with the ways back. */
import Link from "next/link";

export function NotFoundMessage() {
  return (
    <main
      id="main-content"
      tabIndex={-1}
      className="mx-auto mt-16 flex max-w-md flex-col gap-3 p-6 focus:outline-none"
      data-testid="not-found"
    >
      <h1 className="text-xl font-semibold">There is nothing at this address</h1>
      <p className="text-stone-700 dark:text-stone-300">
        The link may be mistyped, or what it led to was deleted: a conversation you removed, or one that
        belongs to another account.
      </p>
      <nav aria-label="Ways back" className="flex flex-wrap gap-3">
        <Link href="/chat" className="rounded-lg bg-blue-700 px-4 py-2 font-semibold text-white">
          Start a conversation
        </Link>
        <Link
          href="/search"
          className="rounded-lg border border-stone-400 px-4 py-2 font-medium dark:border-stone-600"
        >
          Search the documents
        </Link>
      </nav>
    </main>
  );
}
