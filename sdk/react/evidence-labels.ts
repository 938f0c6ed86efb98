/** The words citations and evidence show a person: page numbers, time ranges, support, accessible labels. */
import type { Claim, PdfSpan, Reference } from "../core/wire.ts";

/** A page of a PDF: its 0-based index in the file, and the label printed on it where the PDF defines one. */
export type PageOfFile = Pick<PdfSpan, "page_index"> & { page_label?: string | null | undefined };

const printedLabel = ({ page_index, page_label = null }: PageOfFile): string | null =>
  page_label === String(page_index + 1) ? null : page_label;

/**
 * A page as a person finds it: the printed label and the file's page where they differ, else the
 * file's page alone.
 *
 * @example
 * pageLabel({ page_index: 11, page_label: "6" }); // "p. 6 · page 12 of the file"
 * pageLabel({ page_index: 11 }); // "page 12"
 */
export function pageLabel(page: PageOfFile): string {
  const printed = printedLabel(page);
  const filePage = page.page_index + 1;
  return printed === null ? `page ${filePage}` : `p. ${printed} · page ${filePage} of the file`;
}

/** The pages from `first` to `last` (a quote across a page break), in the words of `pageLabel`. */
export function pageRangeLabel(first: PageOfFile, last: PageOfFile): string {
  if (first.page_index === last.page_index) return pageLabel(first);
  const filePages = `${first.page_index + 1}–${last.page_index + 1}`;
  const printedFirst = printedLabel(first);
  const printedLast = printedLabel(last);
  return printedFirst === null || printedLast === null
    ? `pages ${filePages}`
    : `pp. ${printedFirst}–${printedLast} · pages ${filePages} of the file`;
}

/**
 * Seconds as `m:ss` (or `h:mm:ss` past an hour), for transcript and video evidence.
 *
 * @example
 * clockTime(75.4); // "1:15"
 */
export function clockTime(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = String(whole % 60).padStart(2, "0");
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${minutes}:${rest}`;
}

/** Where in its source a reference points, in a few words: "page 12", "1:05–1:20", or nothing. */
export function referenceLocation(reference: Reference): string | null {
  switch (reference.kind) {
    case "pdf_highlight":
      return pageLabel(reference);
    case "video_interval":
    case "transcript_snippet":
      return `${clockTime(reference.start_s)}–${clockTime(reference.end_s)}`;
    default:
      return null;
  }
}

/**
 * The name a person knows a source by: the document's own title where the service found one (its
 * metadata, a front matter, a first heading), else the file's name.
 */
export function sourceName(reference: Reference): string {
  const title = reference.metadata.document_title;
  return typeof title === "string" && title.trim() !== "" ? title : reference.title;
}

/**
 * The line under a source's name: its file's name where it is shown by another name, then `details`
 * (a heading, a page), joined by " · "; empty when there is nothing to say.
 */
export function sourceDetails(reference: Reference, ...details: Array<string | null>): string {
  const fileName = sourceName(reference) === reference.title ? null : reference.title;
  return [fileName, ...details].filter(Boolean).join(" · ");
}

/** "Source 2: An Introduction to R, page 12": what a screen reader says for a citation. */
export function citationLabel(reference: Reference, number: number | null): string {
  const location = referenceLocation(reference);
  const source = number === null ? "Source" : `Source ${number}`;
  return `${source}: ${sourceName(reference)}${location ? `, ${location}` : ""}`;
}

/**
 * What a reader should know of a claim before trusting it: `check_source` where the cited text backs
 * only part of it (a model's sentence), `related` where it answers the question much less directly
 * than the answer's best claim (context around the answer). A quote is backed completely.
 */
export type ClaimCare = "check_source" | "related";

/** Below this support the cited text backs only part of the claim. */
const backedSupport = 0.7;
/** A claim under this share of the answer's best relevance is context around the answer. */
const relatedShare = 0.5;

/**
 * The care each of an answer's claims needs, by claim number (claims that need none are left out).
 * Relevance is judged against the answer's most relevant claim.
 */
export function claimCares(
  claims: Iterable<Pick<Claim, "n" | "support" | "relevance">>,
): Map<number, ClaimCare> {
  const all = [...claims];
  const best = Math.max(0, ...all.map((claim) => claim.relevance ?? 0));
  const cares = new Map<number, ClaimCare>();
  for (const claim of all) {
    // An answer stored before the two signals: its "support" measured relevance, so it says nothing of backing.
    if (claim.relevance === undefined) continue;
    if (claim.support < backedSupport) cares.set(claim.n, "check_source");
    else if (claim.relevance < relatedShare * best) cares.set(claim.n, "related");
  }
  return cares;
}

export const careWords: Record<ClaimCare, { preview: string; legend: string }> = {
  check_source: {
    preview: "The source backs only part of this sentence: check it.",
    legend: "Wavy underline: the source backs only part of the sentence; check it.",
  },
  related: {
    preview: "Related to the question; it may not answer it directly.",
    legend: "Dotted underline: related to the question, but it may not answer it directly.",
  },
};

/** How the cited text backs a claim, in words: quoted, or backed to a share; null for an answer stored before it was said. */
export function backingWords(claim: Pick<Claim, "support" | "relevance" | "verbatim">): string | null {
  if (claim.relevance === undefined) return null;
  return claim.verbatim
    ? "Quoted word for word from this source."
    : `Backed by this source: ${Math.round(claim.support * 100)}%.`;
}
