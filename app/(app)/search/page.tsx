import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { z } from "zod";
import { SearchResults } from "@/components/search/search-results";
import { authScopeOf, currentUser } from "@/lib/auth";
import { serverEnvironment } from "@/lib/env";
import { serviceClient } from "@/lib/service-client";
import { CitedApiError, limits, type RetrievalResult } from "@/sdk/core/index.ts";

export const metadata: Metadata = { title: "Search · Cited" };

const searchParamsSchema = z.object({
  q: z.string().trim().max(limits.queryLength.max).catch(""),
  datasource: z.string().catch(""),
});

type Outcome =
  | { kind: "none" }
  | { kind: "results"; results: RetrievalResult[] }
  | { kind: "error"; message: string; requestId: string | null };

/** Ranked passages for a query, optionally from one datasource: the service's rag, called on the server. */
export default async function SearchPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const user = await currentUser();
  if (!user) redirect("/sign-in");
  const { q, datasource } = searchParamsSchema.parse(await searchParams);
  const datasources = serverEnvironment().CITED_DATASOURCES;
  const chosen = datasources.find((option) => option.id === datasource)?.id ?? "";
  const outcome = q === "" ? ({ kind: "none" } as const) : await search(q, chosen, user.id);

  return (
    <main
      id="main-content"
      tabIndex={-1}
      className="mx-auto flex h-full max-w-6xl flex-col gap-4 overflow-y-auto p-4 focus:outline-none"
    >
      <h1 className="text-xl font-semibold">Search the sources</h1>
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
        <SearchResults results={outcome.results} query={q} authScope={authScopeOf(user)} />
      ) : null}
      {outcome.kind === "none" ? (
        <p className="text-stone-600 dark:text-stone-400">
          Type a few words to see the passages that match best, with their page and section.
        </p>
      ) : null}
    </main>
  );
}

async function search(query: string, datasource: string, userId: string): Promise<Outcome> {
  // The same kind of id the route handler gives its requests: logged here, shown to the person, sent to the service.
  const requestId = `req_${crypto.randomUUID().replaceAll("-", "")}`;
  try {
    const { results } = await serviceClient().rag(
      { query, id_user: userId, max_results: 10, ...(datasource ? { datasource_ids: [datasource] } : {}) },
      { requestId },
    );
    return { kind: "results", results };
  } catch (error) {
    if (!CitedApiError.isInstance(error)) throw error;
    console.error("search", requestId, error);
    const message =
      error.status === 429
        ? "Too many searches at once. Try again shortly."
        : error.status === 422
          ? (error.problem?.detail ?? "That search cannot be run as it is.")
          : "The knowledge service is not answering right now. Try again in a moment.";
    return { kind: "error", message, requestId: error.requestId ?? requestId };
  }
}
