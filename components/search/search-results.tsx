"use client";
/** Ranked passages with their page and heading; each opens as evidence beside the list. */
import { useState } from "react";
import { EvidencePanel } from "@/components/chat/evidence-panel";
import { useCited } from "@/components/cited-browser-provider";
import type { ServiceBrowserClient } from "@/sdk/browser/index.ts";
import type { RetrievalResult } from "@/sdk/core/wire.ts";
import type { LoadImage, LoadPdf } from "@/sdk/react/index.ts";
import { passageEvidence, resultPages } from "./passage-evidence";
import { querySnippet, queryWords } from "./query-snippet";

export interface SearchResultsProps {
  results: RetrievalResult[];
  query: string;
  authScope: string;
}

/** Loads the page of a PDF passage through the token rag gave it for this user. */
function passagePdfLoader(cited: ServiceBrowserClient, result: RetrievalResult): LoadPdf {
  return (_messageId, _referenceId, options) =>
    cited.passagePdf(result.metadata.pdf?.token ?? "", options.page ?? result.metadata.page_index ?? 0, {
      ...(options.signal ? { signal: options.signal } : {}),
    });
}

/** Loads the image of a passage read by OCR through the token rag gave it for this user. */
function passageImageLoader(cited: ServiceBrowserClient, result: RetrievalResult): LoadImage {
  return (_messageId, _referenceId, options) =>
    cited.passageImage(result.metadata.image?.token ?? "", {
      ...(options.signal ? { signal: options.signal } : {}),
    });
}

export function SearchResults({ results, query, authScope }: SearchResultsProps) {
  const cited = useCited();
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
          loadPdf={passagePdfLoader(cited, opened)}
          loadImage={passageImageLoader(cited, opened)}
          authScope={authScope}
          onClose={() => setOpened(null)}
          // A page gets the screen's height, so its viewer scrolls to the passage; a text fits its text.
          wideClassName={`lg:sticky lg:top-0 lg:w-auto lg:rounded-xl lg:border ${
            opened.metadata.pdf || opened.metadata.image
              ? "lg:h-[calc(100dvh-8rem)]"
              : "lg:h-fit lg:max-h-full"
          }`}
        />
      ) : null}
    </div>
  );
}
