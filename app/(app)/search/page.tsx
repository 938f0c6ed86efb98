import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SearchView } from "@/components/search/search-view";
import { authScopeOf, currentUser } from "@/lib/auth";
import { serverEnvironment } from "@/lib/env";
import { searchParamsSchema, searchPassages } from "@/lib/search";
import { serviceClient } from "@/lib/service-client";

export const metadata: Metadata = { title: "Search · Cited" };

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
  const outcome = await searchPassages(serviceClient(), q, chosen, user.id);
  return (
    <main
      id="main-content"
      tabIndex={-1}
      className="mx-auto flex h-full max-w-6xl flex-col gap-4 overflow-y-auto p-4 focus:outline-none"
    >
      <h1 className="text-xl font-semibold">Search the sources</h1>
      <SearchView
        q={q}
        chosen={chosen}
        datasources={datasources}
        outcome={outcome}
        authScope={authScopeOf(user)}
      />
    </main>
  );
}
