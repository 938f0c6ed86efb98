/** The words citations and evidence show a person: page numbers, time ranges, support, accessible labels. */
import type { Claim, PdfSpan, Reference } from "../core/index.ts";

/** A page of a PDF: its 0-based index in the file, and the label printed on it where the PDF defines one. */
export type PageOfFile = Pick<PdfSpan, "page_index"> & { page_label?: string | null | undefined };

const printedLabel = (page: PageOfFile): string | null =>
  page.page_label === undefined || page.page_label === null || page.page_label === String(page.page_index + 1)
    ? null
    : page.page_label;

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

/** "Source 2: R-intro.pdf, page 12": what a screen reader says for a citation. */
export function citationLabel(reference: Reference, number: number | null): string {
  const location = referenceLocation(reference);
  const source = number === null ? "Source" : `Source ${number}`;
  return `${source}: ${reference.title}${location ? `, ${location}` : ""}`;
}

export type SupportLevel = "strong" | "partial" | "weak";

/** How well the cited passages back a claim, in three steps a reader can tell apart. */
export function supportLevel(claim: Pick<Claim, "support">): SupportLevel {
  if (claim.support >= 0.7) return "strong";
  if (claim.support >= 0.4) return "partial";
  return "weak";
}

export const supportWords: Record<SupportLevel, string> = {
  strong: "Strongly supported",
  partial: "Partly supported",
  weak: "Weakly supported: check the source",
};
