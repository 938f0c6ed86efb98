"use client";
/** Under the empty chat: the documents the assistant answers from, so a person knows what to ask about. */
import { use } from "react";
import type { SourceList } from "@/sdk/core/wire.ts";

/** Titles named; the rest are counted. */
const named = 5;

export function SourcesHint({ sources }: { sources: Promise<SourceList | null> }) {
  const list = use(sources);
  if (list === null) return null;
  if (list.total === 0) {
    return (
      <p data-testid="sources-hint" className="max-w-md text-sm text-stone-600 dark:text-stone-400">
        No document is ready to answer from yet.
      </p>
    );
  }
  const more = list.total - Math.min(named, list.sources.length);
  return (
    <div data-testid="sources-hint" className="flex max-w-xl flex-col items-center gap-2 text-sm">
      <p className="text-stone-600 dark:text-stone-400">
        Answers come from {list.total === 1 ? "one document" : `${list.total} documents`}:
      </p>
      <ul className="flex flex-wrap justify-center gap-1.5">
        {list.sources.slice(0, named).map((source) => (
          <li
            key={source.id_document}
            className="max-w-72 truncate rounded-full border border-stone-300 bg-white px-3 py-0.5 text-stone-800 dark:border-stone-700 dark:bg-stone-900 dark:text-stone-200"
            title={source.title === source.file_name ? source.title : `${source.title} (${source.file_name})`}
          >
            {source.title}
          </li>
        ))}
        {more > 0 ? (
          <li className="px-1 py-0.5 text-stone-600 dark:text-stone-400">and {more} more</li>
        ) : null}
      </ul>
    </div>
  );
}
