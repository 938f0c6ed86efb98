/**
 * The highlight boxes of one page, in CSS pixels. Each line's rect spans the font's ascent to
 * descent; a reader's eye (and the browser's text layer) takes a line as a little taller, so each
 * box grows by a tenth of its height above and below, never into the box of the line next to it.
 */
import { type CssBox, scaleRect } from "../core/index.ts";
import type { Rect } from "../core/wire.ts";

const growth = 0.1;

export function highlightBoxes(rects: readonly Rect[], pageWidth: number, renderedWidth: number): CssBox[] {
  const boxes = rects.map((rect) => scaleRect(rect, pageWidth, renderedWidth));
  return boxes.map((box, index) => {
    let above = box.height * growth;
    let below = box.height * growth;
    for (const [otherIndex, other] of boxes.entries()) {
      if (otherIndex === index || !sharesColumn(box, other)) continue;
      const gapBelow = other.top - (box.top + box.height);
      const gapAbove = box.top - (other.top + other.height);
      if (gapBelow >= 0) below = Math.min(below, gapBelow / 2);
      if (gapAbove >= 0) above = Math.min(above, gapAbove / 2);
    }
    return { left: box.left, top: box.top - above, width: box.width, height: box.height + above + below };
  });
}

function sharesColumn(a: CssBox, b: CssBox): boolean {
  return a.left < b.left + b.width && b.left < a.left + a.width;
}
