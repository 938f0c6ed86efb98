/** Finds running headers and footers: lines that repeat, digits aside, at the same height across pages. */
import { HEADING_RATIO } from "./headings.ts";
import type { TextLine } from "./text-lines.ts";

export interface PageLines {
  height: number;
  lines: TextLine[];
}

// Page numbers change from page to page; roman ones only count when the line is short, so
// ordinary words made of the letters i, v, x, l, c, d, m stay intact.
function maskLine(text: string): string {
  const masked = text.replace(/\d+/g, "#").replace(/\s+/g, " ").trim().toLowerCase();
  const tokens = masked.split(" ");
  if (tokens.length > 4) return masked;
  return tokens.map((token) => (/^[ivxlcdm]+\.?$/.test(token) ? "#" : token)).join(" ");
}

const MARGIN_BAND = 0.15;
const SAME_HEIGHT = 3;

function centerY(line: TextLine): number {
  return (line.box[1] + line.box[3]) / 2;
}

function inMarginBand(line: TextLine, height: number): boolean {
  const y = centerY(line);
  return y < height * MARGIN_BAND || y > height * (1 - MARGIN_BAND);
}

/**
 * Lines to drop: the same masked text at about the same height on at least half of the pages,
 * or, in body-sized type inside the top and bottom margins, on at least three pages (chapter-wise
 * running titles).
 */
export function findRunningLines(pages: readonly PageLines[], bodySize: number): Set<TextLine> {
  const byText = new Map<string, { pageIndex: number; line: TextLine; y: number; margin: boolean }[]>();
  pages.forEach((page, pageIndex) => {
    for (const line of page.lines) {
      const key = maskLine(line.text);
      if (key === "") continue;
      let entries = byText.get(key);
      if (entries === undefined) {
        entries = [];
        byText.set(key, entries);
      }
      // Heading-sized lines repeated in a margin are part or chapter titles ("Part I"), not running heads.
      const margin = inMarginBand(line, page.height) && line.fontSize < bodySize * HEADING_RATIO;
      entries.push({ pageIndex, line, y: centerY(line), margin });
    }
  });
  const pageCount = pages.length;
  const halfOfPages = Math.max(2, Math.ceil(pageCount / 2));
  const fewPages = pageCount >= 6 ? 3 : halfOfPages;
  const running = new Set<TextLine>();
  for (const entries of byText.values()) {
    if (entries.length < Math.min(fewPages, halfOfPages)) continue;
    entries.sort((first, second) => first.y - second.y);
    // Sliding window over heights: how many distinct pages hold this text within ±3 pt of each entry.
    const pagesInWindow = new Map<number, number>();
    let low = 0;
    let high = 0;
    for (const entry of entries) {
      while (high < entries.length && (entries[high]?.y ?? 0) <= entry.y + SAME_HEIGHT) {
        const page = entries[high]?.pageIndex ?? -1;
        pagesInWindow.set(page, (pagesInWindow.get(page) ?? 0) + 1);
        high++;
      }
      while ((entries[low]?.y ?? 0) < entry.y - SAME_HEIGHT) {
        const page = entries[low]?.pageIndex ?? -1;
        const count = (pagesInWindow.get(page) ?? 0) - 1;
        if (count === 0) pagesInWindow.delete(page);
        else pagesInWindow.set(page, count);
        low++;
      }
      const threshold = entry.margin ? Math.min(fewPages, halfOfPages) : halfOfPages;
      if (pagesInWindow.size >= threshold) running.add(entry.line);
    }
  }
  for (const line of linesInRunningSlots(pages, running, bodySize)) running.add(line);
  return running;
}

/**
 * Heights where running lines sit on many pages (the page-number footer, the header). A running
 * title printed on only a page or two (a short chapter's footer) still sits in that slot.
 */
function linesInRunningSlots(
  pages: readonly PageLines[],
  running: Set<TextLine>,
  bodySize: number,
): TextLine[] {
  const marks: { y: number; pageIndex: number }[] = [];
  pages.forEach((page, pageIndex) => {
    for (const line of page.lines) {
      if (running.has(line) && inMarginBand(line, page.height)) marks.push({ y: centerY(line), pageIndex });
    }
  });
  marks.sort((first, second) => first.y - second.y);
  const slots: [number, number][] = [];
  const minPages = Math.max(3, Math.ceil(0.3 * pages.length));
  let clusterStart = 0;
  for (let index = 1; index <= marks.length; index++) {
    const previous = marks[index - 1];
    const mark = marks[index];
    if (mark !== undefined && previous !== undefined && mark.y - previous.y <= 1) continue;
    const cluster = marks.slice(clusterStart, index);
    if (new Set(cluster.map((entry) => entry.pageIndex)).size >= minPages) {
      slots.push([(cluster[0]?.y ?? 0) - 1, (cluster.at(-1)?.y ?? 0) + 1]);
    }
    clusterStart = index;
  }
  const found: TextLine[] = [];
  for (const page of pages) {
    for (const line of page.lines) {
      if (running.has(line) || !inMarginBand(line, page.height) || line.fontSize >= bodySize * HEADING_RATIO)
        continue;
      const y = centerY(line);
      if (slots.some(([low, high]) => y >= low && y <= high)) found.push(line);
    }
  }
  return found;
}
