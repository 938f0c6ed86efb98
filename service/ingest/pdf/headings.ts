/** Heading detection from font sizes: lines set clearly larger than the body text of the document. */
import { heaviestKey } from "./tally.ts";
import type { TextLine } from "./text-lines.ts";

export const HEADING_RATIO = 1.12;
const MAX_HEADING_WORDS = 16;

export interface HeadingClassifier {
  /** Body text font size (points), the most used size by characters. */
  bodySize: number;
  /**
   * Nesting rank of a heading line (smaller is outer), or null for a line that is not a heading.
   * Larger type ranks first; at the same size, "4.1" ranks above "4.1.1", and a heading without a
   * number ranks with "4" (a "Preface" set like the chapters is their sibling, not their parent).
   */
  levelOf(line: TextLine): number | null;
}

const sizeKey = (size: number): number => Math.round(size * 2) / 2;

/** The font size carrying the most characters: the body text. */
export function bodyFontSize(lines: Iterable<TextLine>): number {
  const charsBySize = new Map<number, number>();
  for (const line of lines) {
    const key = sizeKey(line.fontSize);
    charsBySize.set(key, (charsBySize.get(key) ?? 0) + line.text.length);
  }
  return heaviestKey(charsBySize, 0);
}

function isHeadingCandidate(line: TextLine, bodySize: number): boolean {
  if (line.monospace || line.fontSize < bodySize * HEADING_RATIO) return false;
  const text = line.text.trim();
  return /\p{L}/u.test(text) && text.split(/\s+/).length <= MAX_HEADING_WORDS;
}

/** Depth of a section number opening the heading: "4.6.2 Architectures" → 3, none → 0. */
function numberingDepth(text: string): number {
  const match = /^(?:\d+|[A-Z](?=\.\d))((?:\.\d+)*)\.?\s/.exec(text.trim());
  if (match === null) return 0;
  return Math.min(9, 1 + (match[1]?.match(/\./g)?.length ?? 0));
}

export function createHeadingClassifier(lines: readonly TextLine[]): HeadingClassifier {
  const bodySize = bodyFontSize(lines);
  const pagesBySize = new Map<number, Set<number>>();
  const pagesWithText = new Set<number>();
  for (const line of lines) {
    pagesWithText.add(line.pageIndex);
    if (!isHeadingCandidate(line, bodySize)) continue;
    const key = sizeKey(line.fontSize);
    const pages = pagesBySize.get(key) ?? new Set<number>();
    pages.add(line.pageIndex);
    pagesBySize.set(key, pages);
  }
  // A size used only on the first page of a longer document is its title page, not a heading level.
  const firstPage = Math.min(...pagesWithText);
  const sizes = [...pagesBySize]
    .filter(([, pages]) => pagesWithText.size === 1 || pages.size > 1 || !pages.has(firstPage))
    .map(([size]) => size)
    .sort((first, second) => second - first);
  return {
    bodySize,
    levelOf(line) {
      if (!isHeadingCandidate(line, bodySize)) return null;
      const rank = sizes.indexOf(sizeKey(line.fontSize));
      return rank < 0 ? null : rank * 10 + Math.max(1, numberingDepth(line.text));
    },
  };
}

/** The largest type on the first page with text, when it stands out: a title page's title. */
export function titleFromFirstPage(pages: readonly (readonly TextLine[])[], bodySize: number): string | null {
  const lines = pages.find((page) => page.length > 0) ?? [];
  const largest = Math.max(0, ...lines.map((line) => line.fontSize));
  if (largest < bodySize * 1.25) return null;
  const title = lines
    .filter((line) => line.fontSize > largest * 0.95)
    .map((line) => line.text.trim())
    .join(" ")
    .slice(0, 200);
  return /\p{L}/u.test(title) ? title : null;
}

// "Chapter 3", "Part II", "ONE": a label printed on its own line above the title it belongs to.
const LABEL =
  /^(?:(?:chapter|part|appendix|book|section|kapitel|chapitre)\s+[\p{L}\d.]+|\d+|[IVXLC]+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty)$/iu;

/** Headings of the same type size (a title wrapped over two lines has one rank). */
export function sizeRank(level: number): number {
  return Math.floor(level / 10);
}

export function isHeadingLabel(text: string): boolean {
  return LABEL.test(text.trim());
}
