/** Turns a sentence's character range in a block into highlight rectangles, one per line, grouped by page. */
import type { PdfSpan } from "../../../sdk/core/wire.ts";
import type { BlockDraft } from "./blocks.ts";
import { type Rect, roundRect, unionRect } from "./geometry.ts";
import { fragmentRect, type TextLine } from "./text-lines.ts";

export interface PageSize {
  width: number;
  height: number;
}

/** The rectangle covering characters `[from, to)` of a line's own text, or null when none is drawn. */
function lineRect(line: TextLine, from: number, to: number): Rect | null {
  let rect: Rect | null = null;
  for (let index = 0; index < line.fragments.length; index++) {
    const fragment = line.fragments[index];
    const fragmentStart = line.fragmentStarts[index] ?? 0;
    if (fragment === undefined) continue;
    const fragmentEnd = fragmentStart + fragment.text.length;
    if (fragmentEnd <= from) continue;
    if (fragmentStart >= to) break;
    rect = unionRect(
      rect,
      fragmentRect(
        fragment,
        Math.max(from, fragmentStart) - fragmentStart,
        Math.min(to, fragmentEnd) - fragmentStart,
      ),
    );
  }
  return rect;
}

/** First line whose kept text ends after `offset` (binary search over the block's line offsets). */
function firstLineAfter(block: BlockDraft, offset: number): number {
  let low = 0;
  let high = block.lines.length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    const lineEnd = (block.lineOffsets[middle] ?? 0) + (block.lineLengths[middle] ?? 0);
    if (lineEnd <= offset) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Spans for block text `[start, end)`: one per page in reading order, each with one rect per line. */
export function sentenceSpans(
  block: BlockDraft,
  start: number,
  end: number,
  pageSizes: readonly PageSize[],
): PdfSpan[] {
  const spans: PdfSpan[] = [];
  for (let index = firstLineAfter(block, start); index < block.lines.length; index++) {
    const line = block.lines[index] as TextLine;
    const lineOffset = block.lineOffsets[index] ?? 0;
    if (lineOffset >= end) break;
    const lineStart = block.lineStarts[index] ?? 0;
    const from = lineStart + Math.max(0, start - lineOffset);
    const to = lineStart + Math.min(block.lineLengths[index] ?? 0, end - lineOffset);
    if (to <= from || line.text.slice(from, to).trim() === "") continue;
    const rect = lineRect(line, from, to);
    if (rect === null) continue;
    let span = spans.at(-1);
    if (span === undefined || span.page_index !== line.pageIndex) {
      const size = pageSizes[line.pageIndex] ?? { width: 1, height: 1 };
      span = { page_index: line.pageIndex, rects: [], page_width: size.width, page_height: size.height };
      spans.push(span);
    }
    span.rects.push(roundRect(rect));
  }
  return spans;
}
