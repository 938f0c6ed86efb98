/** The words citations and evidence show a person: page numbers, time ranges, support, accessible labels. */
import type { Claim, Reference } from "../core/index.ts";

/** A 0-based page index as a person counts pages. */
export function pageLabel(pageIndex: number): string {
  return `page ${pageIndex + 1}`;
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
      return pageLabel(reference.page_index);
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
