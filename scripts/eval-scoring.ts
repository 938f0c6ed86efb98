/** Scoring rules of an eval's question set (docs/eval.md), as pure functions. */
import type { AnswerState } from "../sdk/core/index.ts";
import type { Reference, RetrievalResult } from "../sdk/core/wire.ts";
import type { QaItem } from "./eval-qa-set.ts";

const collapse = (text: string) => text.toLowerCase().replace(/\s+/g, " ").trim();
const squeeze = (text: string) => text.toLowerCase().replace(/[\s\p{P}\p{S}]+/gu, "");

/** The README's matching rule: case-insensitive with whitespace collapsed, or with whitespace and punctuation removed. */
export function quoteContains(quote: string, answer: string): boolean {
  return collapse(quote).includes(collapse(answer)) || squeeze(quote).includes(squeeze(answer));
}

function referencePages(reference: Reference): number[] {
  if (reference.kind !== "pdf_highlight") return [];
  return reference.spans.map((span) => span.page_index + 1);
}

/** On one of the item's pages of its doc; any reference to the doc when the item names no pages (not a PDF). */
export function onExpectedPage(reference: Reference, item: QaItem): boolean {
  return reference.title === item.doc && onPages(referencePages(reference), item);
}

const onPages = (pages: readonly number[], item: QaItem) =>
  item.pages.length === 0 || pages.some((page) => item.pages.includes(page));

export function isCitationHit(reference: Reference, item: QaItem): boolean {
  return (
    onExpectedPage(reference, item) &&
    item.answer_contains.some((answer) => quoteContains(reference.quote, answer))
  );
}

export function citedReferences(answer: AnswerState): Reference[] {
  const cited = new Set(Object.values(answer.claims).flatMap((claim) => claim.reference_ids));
  return [...cited].flatMap((id) => answer.references[id] ?? []);
}

/** 1-based rank of the first result on an expected page of the expected document (any, without pages), or null. */
export function firstRelevantRank(results: readonly RetrievalResult[], item: QaItem): number | null {
  const hit = results.find((result) => {
    const pages = (result.metadata.page_indices ?? []).map((page) => page + 1);
    return result.metadata.file_name === item.doc && onPages(pages, item);
  });
  return hit ? hit.rank : null;
}

export function percentile(values: readonly number[], fraction: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;
}
