import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { SearchView } from "@/components/search/search-view";
import { authScopeOf } from "@/lib/auth";
import { consoleAdminClient } from "@/lib/console/admin-client";
import { requireOperator } from "@/lib/console/operator";
import { trialSearch, trialUserId } from "@/lib/console/trial";
import { searchParamsSchema } from "@/lib/search";
import { assistantIdSchema } from "@/sdk/core/wire.ts";

export const metadata: Metadata = { title: "Try search · Console · Cited" };

/** The assistant's search as its users get it, through the Try tab's key. */
export default async function TrySearchPage({
  params,
  searchParams,
}: {
  params: Promise<{ assistant: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const operator = await requireOperator();
  const assistant = assistantIdSchema.safeParse((await params).assistant);
  if (!assistant.success) notFound();
  const { q, datasource } = searchParamsSchema.parse(await searchParams);
  const datasources = await consoleAdminClient().listDatasources(assistant.data);
  const chosen = datasources.find((option) => option.id === datasource)?.id ?? "";
  // The trial key is made for a search, not for the empty form.
  const outcome =
    q === ""
      ? ({ kind: "none" } as const)
      : await trialSearch(assistant.data, q, chosen, trialUserId(assistant.data, operator.id));
  return (
    <SearchView
      q={q}
      chosen={chosen}
      datasources={datasources}
      outcome={outcome}
      authScope={`${authScopeOf(operator)}:try`}
    />
  );
}
