/** The citation markers a model writes after a sentence: `[2.3]`, `[2.3-4]`, `[2.3, 4.1]` (passage.sentence, 1-based). */

export interface SentenceCitation {
  /** 1-based number of the passage in the prompt. */
  passage: number;
  /** 1-based first and last cited sentence of that passage. */
  first: number;
  last: number;
}

export interface MarkerMatch {
  /** Index just past the closing bracket. */
  end: number;
  /** The citations, or null when the bracket looks like a marker but does not parse (`[2]`, `[1.2.3]`). */
  citations: SentenceCitation[] | null;
}

// Bracketed digits, dots, separators and dashes: anything else in brackets (`[options]`) is plain text.
const markerLike = /\[[\d\s.,;\-–—]*\d[\d\s.,;\-–—]*\]/y;
const openMarker = /\[[\d\s.,;\-–—]*$/;
/** Longest unclosed marker worth waiting for before the bracket is taken as text. */
const longestOpenMarker = 40;
const citationPattern = /^(\d+)\.(\d+)(?:\s*[-–—]\s*(?:(\d+)\.)?(\d+))?$/;

/**
 * The marker that starts at `index` of `text`; `"partial"` when `text` ends inside what may still become
 * one (wait for more text); null when there is none.
 */
export function matchMarkerAt(text: string, index: number): MarkerMatch | "partial" | null {
  if (text[index] !== "[") return null;
  markerLike.lastIndex = index;
  const match = markerLike.exec(text);
  if (match) return { end: index + match[0].length, citations: parseCitations(match[0]) };
  const rest = text.slice(index);
  return rest.length <= longestOpenMarker && openMarker.test(rest) ? "partial" : null;
}

/** `"[2.3-4, 5.1]"` → its citations; null if any part is malformed. */
function parseCitations(marker: string): SentenceCitation[] | null {
  const parts = marker.slice(1, -1).split(/[,;]/);
  const citations: SentenceCitation[] = [];
  for (const part of parts) {
    const match = citationPattern.exec(part.trim());
    if (!match) return null;
    const passage = Number(match[1]);
    const first = Number(match[2]);
    const endPassage = match[3] === undefined ? passage : Number(match[3]);
    const last = match[4] === undefined ? first : Number(match[4]);
    if (endPassage !== passage) return null;
    citations.push({ passage, first, last });
  }
  return citations;
}
