/** Groups the text runs of one page into lines, keeping the geometry that places each character. */
import { advanceFraction } from "./char-widths.ts";
import { applyLinear, applyMatrix, type Matrix, type Rect, unionRect } from "./geometry.ts";
import { cleanText, countNonSpace } from "./text-clean.ts";

/**
 * A run of text drawn in one go (a pdfjs item or an OCR word). Positions are in displayed page
 * space: the baseline origin, and the displayed vectors of one unit along the run and one unit up.
 */
export interface TextFragment {
  text: string;
  originX: number;
  originY: number;
  alongX: number;
  alongY: number;
  upX: number;
  upY: number;
  advance: number;
  ascent: number;
  descent: number;
  fontSize: number;
  monospace: boolean;
  fontName: string;
}

export interface TextLine {
  pageIndex: number;
  text: string;
  fragments: TextFragment[];
  /** Offset of each fragment's text inside `text`; the characters between fragments are inserted spaces. */
  fragmentStarts: number[];
  box: Rect;
  /** Displayed y of the first run's baseline. */
  baseline: number;
  fontSize: number;
  monospace: boolean;
  fontName: string;
}

/** The parts of a pdfjs text item this module reads (see `TextItem` in pdfjs-dist's api.d.ts). */
export interface RawTextItem {
  str: string;
  transform: number[];
  width: number;
  height: number;
  fontName: string;
  hasEOL: boolean;
}

export interface RawTextStyle {
  ascent: number;
  descent: number;
  fontFamily: string;
}

// Fonts with broken metrics report ascent 0 or descent -2222; typical Latin values stand in.
function guardAscent(ascent: number): number {
  return ascent > 0 && ascent < 1.5 ? ascent : 0.8;
}

function guardDescent(descent: number): number {
  return descent > -1 && descent < 0 ? descent : -0.2;
}

/** The displayed rectangle of characters `[from, to)` of a fragment. */
export function fragmentRect(fragment: TextFragment, from: number, to: number): Rect {
  const start = advanceFraction(fragment.text, from, fragment.monospace) * fragment.advance;
  const end = advanceFraction(fragment.text, to, fragment.monospace) * fragment.advance;
  let minX = Number.POSITIVE_INFINITY;
  let minY = Number.POSITIVE_INFINITY;
  let maxX = Number.NEGATIVE_INFINITY;
  let maxY = Number.NEGATIVE_INFINITY;
  for (const along of [start, end]) {
    for (const up of [fragment.descent, fragment.ascent]) {
      const x = fragment.originX + along * fragment.alongX + up * fragment.upX;
      const y = fragment.originY + along * fragment.alongY + up * fragment.upY;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
  }
  return [minX, minY, maxX, maxY];
}

function toFragment(
  item: RawTextItem,
  text: string,
  style: RawTextStyle | undefined,
  viewportTransform: Matrix,
): TextFragment | null {
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0] = item.transform;
  const alongScale = Math.hypot(a, b);
  const fontSize = Math.hypot(c, d) || item.height || alongScale;
  if (fontSize === 0 || alongScale === 0) return null;
  const [originX, originY] = applyMatrix(viewportTransform, e, f);
  const [alongX, alongY] = applyLinear(viewportTransform, a / alongScale, b / alongScale);
  const upScale = Math.hypot(c, d) || alongScale;
  const [upX, upY] = applyLinear(viewportTransform, c / upScale, d / upScale);
  return {
    text,
    originX,
    originY,
    alongX,
    alongY,
    upX,
    upY,
    advance: item.width,
    ascent: guardAscent(style?.ascent ?? 0) * fontSize,
    descent: guardDescent(style?.descent ?? 0) * fontSize,
    fontSize,
    monospace: style?.fontFamily === "monospace",
    fontName: item.fontName,
  };
}

interface LineDraft {
  text: string;
  fragments: TextFragment[];
  fragmentStarts: number[];
}

/** Where `next` sits relative to the end of `last`: along the run and across it (both in points). */
function offsetFrom(
  last: TextFragment,
  next: TextFragment,
): { along: number; across: number; turned: boolean } {
  const endX = last.originX + last.advance * last.alongX;
  const endY = last.originY + last.advance * last.alongY;
  const dx = next.originX - endX;
  const dy = next.originY - endY;
  const turned = last.alongX * next.alongX + last.alongY * next.alongY < 0.98;
  return { along: dx * last.alongX + dy * last.alongY, across: dx * last.upX + dy * last.upY, turned };
}

function finishLine(draft: LineDraft, pageIndex: number): TextLine | null {
  const first = draft.fragments[0];
  if (first === undefined) return null;
  let box: Rect | null = null;
  const charsByFont = new Map<TextFragment, number>();
  let total = 0;
  let monospaceChars = 0;
  for (const fragment of draft.fragments) {
    box = unionRect(box, fragmentRect(fragment, 0, fragment.text.length));
    const chars = countNonSpace(fragment.text);
    charsByFont.set(fragment, chars);
    total += chars;
    if (fragment.monospace) monospaceChars += chars;
  }
  let dominant = first;
  for (const [fragment, chars] of charsByFont)
    if (chars > (charsByFont.get(dominant) ?? 0)) dominant = fragment;
  return {
    pageIndex,
    text: draft.text,
    fragments: draft.fragments,
    fragmentStarts: draft.fragmentStarts,
    box: box ?? [first.originX, first.originY, first.originX, first.originY],
    baseline: first.originY,
    fontSize: dominant.fontSize,
    monospace: total > 0 && monospaceChars >= 0.8 * total,
    fontName: dominant.fontName,
  };
}

/** Fake bold draws the same run twice, a hair apart; the copy adds nothing. */
function isOverstrike(last: TextFragment | undefined, fragment: TextFragment): boolean {
  return (
    last !== undefined &&
    last.text === fragment.text &&
    Math.abs(last.originX - fragment.originX) < 1 &&
    Math.abs(last.originY - fragment.originY) < 1
  );
}

/** "break" starts a new line; "space" continues it after a gap; "join" continues it directly. */
function placeAfter(last: TextFragment, fragment: TextFragment): "break" | "space" | "join" {
  const size = Math.max(last.fontSize, fragment.fontSize);
  const { along, across, turned } = offsetFrom(last, fragment);
  if (turned || Math.abs(across) > 0.5 * size || along < -size || along > 2 * size) return "break";
  return along > 0.15 * size ? "space" : "join";
}

/**
 * Builds lines in content-stream order. A line ends at a pdfjs end-of-line mark, when the
 * baseline moves by more than half the font size, when the run turns, when text goes back
 * over itself, or at a gap wider than two font sizes (table cells, column gutters).
 */
export function buildLines(
  items: readonly RawTextItem[],
  styles: Readonly<Record<string, RawTextStyle>>,
  viewportTransform: Matrix,
  pageIndex: number,
): TextLine[] {
  const lines: TextLine[] = [];
  let draft: LineDraft = { text: "", fragments: [], fragmentStarts: [] };
  let pendingSpace = false;
  const flush = (): void => {
    const line = finishLine(draft, pageIndex);
    if (line !== null) lines.push(line);
    draft = { text: "", fragments: [], fragmentStarts: [] };
    pendingSpace = false;
  };
  for (const item of items) {
    const text = cleanText(item.str);
    const fragment =
      text.trim() === "" ? null : toFragment(item, text, styles[item.fontName], viewportTransform);
    if (text.length > 0 && text.trim() === "") pendingSpace = true;
    const last = draft.fragments.at(-1);
    if (fragment !== null && !isOverstrike(last, fragment)) {
      const placement = last === undefined ? "join" : placeAfter(last, fragment);
      if (placement === "break") flush();
      const spaced = placement === "space" || (placement === "join" && pendingSpace);
      const between = draft.text !== "" && !draft.text.endsWith(" ") && !text.startsWith(" ");
      if (placement !== "break" && spaced && between) draft.text += " ";
      draft.fragmentStarts.push(draft.text.length);
      draft.fragments.push(fragment);
      draft.text += text;
      pendingSpace = false;
    }
    if (item.hasEOL) flush();
  }
  flush();
  return lines;
}
