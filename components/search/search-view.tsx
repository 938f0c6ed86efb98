/** The search form and what it found: the app's search page and the console's Try tab show the same. */
import { SearchResults } from "@/components/search/search-results";
import type { SearchOutcome } from "@/lib/search";
import { limits } from "@/sdk/core/index.ts";

export interface SearchViewProps {
  /** The words searched for; "" before any search. */
  q: string;
  /** The datasource chosen, or "" for all. */
  chosen: string;
  datasources: ReadonlyArray<{ id: string; name: string }>;
  outcome: SearchOutcome;
  authScope: string;
}

export function SearchView({ q, chosen, datasources, outcome, authScope }: SearchViewProps) {
  return (
    <>
      <search>
        <form method="get" className="flex flex-wrap items-end gap-3">
          <label className="flex min-w-64 flex-1 flex-col gap-1 text-sm font-medium">
            Search
            <input
              name="q"
              type="search"
              defaultValue={q}
              maxLength={limits.queryLength.max}
              className="rounded-lg border border-stone-400 bg-white px-3 py-2 text-base font-normal dark:border-stone-600 dark:bg-stone-900"
            />
          </label>
          <label className="flex flex-col gap-1 text-sm font-medium">
            Datasource
            <select
              name="datasource"
              defaultValue={chosen}
              className="rounded-lg border border-stone-400 bg-white px-3 py-2 text-base font-normal dark:border-stone-600 dark:bg-stone-900"
            >
              <option value="">All datasources</option>
              {datasources.map((option) => (
                <option key={option.id} value={option.id}>
                  {option.name}
                </option>
              ))}
            </select>
          </label>
          <button
            type="submit"
            className="rounded-lg bg-blue-700 px-4 py-2 font-semibold text-white hover:bg-blue-800"
          >
            Search
          </button>
        </form>
      </search>
      {outcome.kind === "error" ? (
        <div
          role="alert"
          data-testid="error-banner"
          className="rounded-lg border border-red-700 bg-red-50 p-3 text-sm text-red-900 dark:border-red-400 dark:bg-red-950 dark:text-red-100"
        >
          <p>{outcome.message}</p>
          {outcome.requestId ? (
            <p className="mt-1 font-mono text-xs">Request id: {outcome.requestId}</p>
          ) : null}
        </div>
      ) : null}
      {outcome.kind === "results" ? (
        <SearchResults results={outcome.results} query={q} authScope={authScope} />
      ) : null}
      {outcome.kind === "none" ? (
        <p className="text-stone-600 dark:text-stone-400">
          Type a few words to see the passages that match best, with their page and section.
        </p>
      ) : null}
    </>
  );
}
