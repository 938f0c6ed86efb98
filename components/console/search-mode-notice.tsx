import type { ServiceStatus } from "@/sdk/admin/schemas.ts";

/**
 * Says how the service finds passages when it is not by meaning: while its model loads, or when it has
 * none and answers by word matching alone. With the model loaded there is nothing to say.
 */
export function SearchModeNotice({ status }: { status: ServiceStatus }) {
  if (status.search === "semantic") return null;
  const loading = status.search === "loading";
  return (
    <section
      aria-label="Search mode"
      data-testid="search-mode-notice"
      className="rounded-lg border border-stone-400 bg-stone-100 px-3 py-2 text-sm text-stone-800 dark:border-stone-600 dark:bg-stone-900 dark:text-stone-200"
    >
      <p>
        <strong className="font-semibold">
          {loading ? "Loading the embedding model." : "Searching by words only."}
        </strong>{" "}
        {loading
          ? "Until it is ready, questions are answered by word matching; documents become searchable by meaning once it is."
          : "Questions phrased differently from the documents may be missed or refused."}
      </p>
      <p className="mt-1 break-words text-xs text-stone-600 dark:text-stone-400">{status.detail}</p>
    </section>
  );
}
