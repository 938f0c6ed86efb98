/** Estimated glyph advances, so a character's x inside a text run can be placed closer than by its index. */

// Helvetica advance widths (per 1000 em) for ASCII 32–126, from the standard AFM metrics.
// Proportional fonts differ in detail but agree on the big contrasts (i vs m), which is
// what makes interpolation by width several points better than by character count.
const ASCII_WIDTHS = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556,
  556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667, 611, 778, 722, 278,
  500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469,
  556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500,
  278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];
const DEFAULT_WIDTH = 556;
const WIDE_WIDTH = 1000;

function charWidth(code: number): number {
  if (code >= 32 && code <= 126) return ASCII_WIDTHS[code - 32] ?? DEFAULT_WIDTH;
  // CJK ideographs, kana and full-width forms are square.
  if (
    (code >= 0x2e80 && code <= 0x9fff) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xff00 && code <= 0xff60)
  ) {
    return WIDE_WIDTH;
  }
  return DEFAULT_WIDTH;
}

/**
 * Fraction (0–1) of a run's advance that lies before character `index`.
 * Monospaced runs are exact by index; proportional ones are weighted by estimated widths.
 */
export function advanceFraction(text: string, index: number, monospace: boolean): number {
  const length = text.length;
  if (index <= 0 || length === 0) return 0;
  if (index >= length) return 1;
  if (monospace) return index / length;
  let before = 0;
  let total = 0;
  for (let position = 0; position < length; position++) {
    const width = charWidth(text.charCodeAt(position));
    if (position < index) before += width;
    total += width;
  }
  return total > 0 ? before / total : index / length;
}
