/**
 * How well the highlight boxes of a rendered PDF page sit on the quoted sentence, measured in the
 * DOM: the quote's characters in the text layer (found by matching them, whitespace ignored, and
 * measured with a Range) against the highlight boxes drawn from the reference's coordinates.
 */
import type { Page } from "@playwright/test";

export interface HighlightFit {
  /** Highlight boxes on the page. */
  boxes: number;
  /** Boxes of the quote's characters in the text layer (one per text-layer span it touches). */
  quoteBoxes: number;
  /** Share of the quote's text area inside the highlight boxes (0–1). */
  coverage: number;
  /** How far the highlight reaches beyond the quote's spans, in pixels (0 when inside). */
  outside: number;
  /** The median height of the quote's text boxes: one line. */
  lineHeight: number;
  /** Characters of the quote found on this page. */
  matchedCharacters: number;
}

/** Measures the fit on the page frame whose `data-page-index` is `pageIndex`. */
export function measureHighlight(page: Page, pageIndex: number, quote: string): Promise<HighlightFit> {
  return page.evaluate(
    ({ pageIndex, quote }) => {
      const strip = (text: string) => text.normalize("NFKC").replace(/[\s\u00ad-]/g, "");
      const frame = document.querySelector(`[data-page-index="${pageIndex}"]`);
      if (frame === null) throw new Error(`page ${pageIndex} is not rendered`);
      const textNodes = [...frame.querySelectorAll(".react-pdf__Page__textContent span")].flatMap((span) =>
        [...span.childNodes].filter((node): node is Text => node.nodeType === Node.TEXT_NODE),
      );
      // The page's text without whitespace, and for each of its characters the text node and offset it came from.
      let pageText = "";
      const origin: Array<{ node: number; offset: number }> = [];
      textNodes.forEach((node, nodeIndex) => {
        const raw = node.data;
        for (let offset = 0; offset < raw.length; offset += 1) {
          const kept = strip(raw[offset]!);
          pageText += kept;
          for (let copy = 0; copy < kept.length; copy += 1) origin.push({ node: nodeIndex, offset });
        }
      });
      // The whole quote, or (across a page break) the longest head or tail of it on this page.
      const wanted = strip(quote);
      let start = -1;
      let length = 0;
      for (let size = wanted.length; size >= 12 && start === -1; size -= 1) {
        for (const candidate of [wanted.slice(0, size), wanted.slice(wanted.length - size)]) {
          const at = pageText.indexOf(candidate);
          if (at !== -1) {
            start = at;
            length = size;
            break;
          }
        }
      }
      if (start === -1) throw new Error(`the quote is not in the text layer of page ${pageIndex}`);
      // The quote's characters as drawn: one box per text node it touches (a Range measures exactly those characters).
      const quoteRects: DOMRect[] = [];
      const matched = origin.slice(start, start + length);
      for (const nodeIndex of new Set(matched.map((character) => character.node))) {
        const offsets = matched
          .filter((character) => character.node === nodeIndex)
          .map((character) => character.offset);
        const range = document.createRange();
        range.setStart(textNodes[nodeIndex]!, Math.min(...offsets));
        range.setEnd(textNodes[nodeIndex]!, Math.max(...offsets) + 1);
        const rect = range.getBoundingClientRect();
        if (rect.width > 0 && rect.height > 0) quoteRects.push(rect);
      }
      const boxes = [...frame.querySelectorAll<HTMLElement>("[data-cited-highlight]")].map((box) =>
        box.getBoundingClientRect(),
      );
      const overlap = (a: DOMRect, b: DOMRect) =>
        Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) *
        Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
      let area = 0;
      let covered = 0;
      for (const rect of quoteRects) {
        area += rect.width * rect.height;
        // Highlight boxes are one per line and do not overlap, so their overlaps add up.
        covered += Math.min(
          rect.width * rect.height,
          boxes.reduce((sum, box) => sum + overlap(rect, box), 0),
        );
      }
      const heights = quoteRects.map((rect) => rect.height).sort((a, b) => a - b);
      const lineHeight = heights[Math.floor(heights.length / 2)] ?? 0;
      const bounds = {
        left: Math.min(...quoteRects.map((rect) => rect.left)),
        top: Math.min(...quoteRects.map((rect) => rect.top)),
        right: Math.max(...quoteRects.map((rect) => rect.right)),
        bottom: Math.max(...quoteRects.map((rect) => rect.bottom)),
      };
      const outside = Math.max(
        0,
        ...boxes.flatMap((box) => [
          bounds.left - box.left,
          box.right - bounds.right,
          bounds.top - box.top,
          box.bottom - bounds.bottom,
        ]),
      );
      return {
        boxes: boxes.length,
        quoteBoxes: quoteRects.length,
        coverage: area === 0 ? 0 : covered / area,
        outside,
        lineHeight,
        matchedCharacters: length,
      };
    },
    { pageIndex, quote },
  );
}
