"use client";
/** Ranked passages with their page and heading; each opens as evidence beside the list. */
import { useState } from "react";
import { EvidencePanel } from "@/components/chat/evidence-panel";
import type { Reference, RetrievalResult } from "@/sdk/core/index.ts";
import { pageRangeLabel } from "@/sdk/react/index.ts";
import { querySnippet, queryWords } from "./query-snippet";

export interface SearchResultsProps {
  results: RetrievalResult[];
  query: string;
  authScope: string;
}

/** The pages a passage covers; rag gives the printed label of the first page only. */
function resultPages(metadata: RetrievalResult["metadata"]): string {
  const first = { page_index: metadata.page_index ?? 0, page_label: metadata.page_label };
  return pageRangeLabel(first, { page_index: metadata.page_indices?.at(-1) ?? first.page_index });
}

/**
 * A passage shown as evidence: its text under its document and heading. rag hands out no PDF
 * token (only an answer's references carry one), so a PDF passage opens as its text, with its page.
 */
function passageEvidence(result: RetrievalResult): Reference {
  const { metadata } = result;
  const pages = metadata.page_index === undefined ? null : resultPages(metadata);
  return {
    id: `ref_search${result.rank}`,
    kind: "paragraph",
    id_datasource: result.id_datasource,
    id_document: metadata.id_document,
    title: metadata.title,
    quote: result.content,
    url: null,
    metadata: { heading: [metadata.heading, pages].filter(Boolean).join(" · ") || null },
  };
}

export function SearchResults({ results, query, authScope }: SearchResultsProps) {
  const [opened, setOpened] = useState<RetrievalResult | null>(null);
  if (results.length === 0) {
    return <p role="status">No passage matches “{query}”. Try other words, or all datasources.</p>;
  }
  const words = queryWords(query);
  // One readable column; the opened passage takes the second one beside it.
  return (
    <div className={opened ? "grid gap-4 lg:grid-cols-2" : "max-w-3xl"}>
      <ol className="flex min-w-0 flex-col gap-3" aria-label="Results">
        {results.map((result) => {
          const { metadata } = result;
          return (
            <li
              key={result.id_element}
              data-testid="search-result"
              className="rounded-lg border border-stone-300 bg-white p-3 dark:border-stone-700 dark:bg-stone-900"
            >
              <div className="flex flex-wrap items-baseline gap-2 text-sm">
                <span className="font-semibold">{result.rank}.</span>
                <span className="font-semibold">{metadata.title}</span>
                {metadata.page_index === undefined ? null : (
                  <span className="text-stone-600 dark:text-stone-400">{resultPages(metadata)}</span>
                )}
                {metadata.heading ? (
                  <span className="text-stone-600 dark:text-stone-400">· {metadata.heading}</span>
                ) : null}
              </div>
              <p className="mt-1 text-sm [overflow-wrap:anywhere]" data-testid="search-snippet">
                {querySnippet(result.content, words).map((part) =>
                  part.match ? (
                    <mark
                      key={part.start}
                      className="rounded-sm bg-yellow-200 px-0.5 text-inherit dark:bg-yellow-700/60"
                    >
                      {part.text}
                    </mark>
                  ) : (
                    <span key={part.start}>{part.text}</span>
                  ),
                )}
              </p>
              <button
                type="button"
                onClick={() => setOpened(result)}
                aria-label={`Open result ${result.rank}: ${metadata.title}`}
                className="mt-2 rounded-lg border border-stone-400 px-3 py-1 text-sm hover:border-blue-700 dark:border-stone-600"
              >
                Open
              </button>
            </li>
          );
        })}
      </ol>
      {opened ? (
        <EvidencePanel
          evidence={{ reference: passageEvidence(opened), claim: null, messageId: "search" }}
          authScope={authScope}
          onClose={() => setOpened(null)}
          wideClassName="lg:sticky lg:top-0 lg:h-fit lg:max-h-full lg:w-auto lg:rounded-xl lg:border"
        />
      ) : null}
    </div>
  );
}
