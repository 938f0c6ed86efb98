/** Reading order for a page's lines: columns are read one after the other when the geometry shows them. */
import { rectWidth } from "./geometry.ts";
import type { TextLine } from "./text-lines.ts";

const MIN_COLUMN_LINES = 5;
const MAX_DEPTH = 2;

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((first, second) => first - second);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** The widest vertical strip in the middle of the text area that no narrow line crosses. */
function findGutter(lines: readonly TextLine[]): number | null {
  let minX = Number.POSITIVE_INFINITY;
  let maxX = Number.NEGATIVE_INFINITY;
  for (const line of lines) {
    minX = Math.min(minX, line.box[0]);
    maxX = Math.max(maxX, line.box[2]);
  }
  const width = maxX - minX;
  if (!(width > 0)) return null;
  const narrow = lines
    .filter((line) => rectWidth(line.box) < 0.55 * width)
    .map((line) => [line.box[0], line.box[2]] as const)
    .sort((first, second) => first[0] - second[0]);
  const bandStart = minX + 0.2 * width;
  const bandEnd = minX + 0.8 * width;
  const minGap = 0.5 * median(lines.map((line) => line.fontSize));
  let best: { start: number; end: number } | null = null;
  let coveredTo = minX;
  for (const [start, end] of narrow) {
    if (start > coveredTo) {
      const gapStart = Math.max(coveredTo, bandStart);
      const gapEnd = Math.min(start, bandEnd);
      if (gapEnd - gapStart >= minGap && (best === null || gapEnd - gapStart > best.end - best.start)) {
        best = { start: gapStart, end: gapEnd };
      }
    }
    coveredTo = Math.max(coveredTo, end);
  }
  return best === null ? null : (best.start + best.end) / 2;
}

function extent(lines: readonly TextLine[], low: 0 | 1, high: 2 | 3): [number, number] {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const line of lines) {
    min = Math.min(min, line.box[low]);
    max = Math.max(max, line.box[high]);
  }
  return [min, max];
}

/** Text columns are filled with lines about as wide as the column; table columns are not. */
function looksLikeColumn(lines: readonly TextLine[]): boolean {
  if (lines.length < MIN_COLUMN_LINES) return false;
  const [left, right] = extent(lines, 0, 2);
  return median(lines.map((line) => rectWidth(line.box))) >= 0.6 * (right - left);
}

function sideBySide(left: readonly TextLine[], right: readonly TextLine[]): boolean {
  const [leftTop, leftBottom] = extent(left, 1, 3);
  const [rightTop, rightBottom] = extent(right, 1, 3);
  const overlap = Math.min(leftBottom, rightBottom) - Math.max(leftTop, rightTop);
  return overlap >= 0.5 * Math.min(leftBottom - leftTop, rightBottom - rightTop);
}

function centerY(line: TextLine): number {
  return (line.box[1] + line.box[3]) / 2;
}

/**
 * Orders lines for reading. Without columns the content-stream order stands. With a gutter, lines
 * crossing it (titles, full-width figures) cut the page into bands; each band is read left column
 * first, then right, each column in stream order.
 */
export function orderLines(lines: readonly TextLine[], depth = 0): TextLine[] {
  if (depth >= MAX_DEPTH || lines.length < 2 * MIN_COLUMN_LINES) return [...lines];
  const gutter = findGutter(lines);
  if (gutter === null) return [...lines];
  const left = lines.filter((line) => line.box[2] <= gutter);
  const right = lines.filter((line) => line.box[0] >= gutter);
  const spanning = lines.filter((line) => line.box[2] > gutter && line.box[0] < gutter);
  const columnsHoldMostLines = left.length + right.length >= 0.6 * lines.length;
  if (
    !columnsHoldMostLines ||
    !looksLikeColumn(left) ||
    !looksLikeColumn(right) ||
    !sideBySide(left, right)
  ) {
    return [...lines];
  }
  const separators = [...spanning].sort((first, second) => centerY(first) - centerY(second));
  const bandOf = (line: TextLine): number => {
    const y = centerY(line);
    let band = 0;
    while (band < separators.length && centerY(separators[band] as TextLine) < y) band++;
    return band;
  };
  const ordered: TextLine[] = [];
  for (let band = 0; band <= separators.length; band++) {
    ordered.push(
      ...orderLines(
        left.filter((line) => bandOf(line) === band),
        depth + 1,
      ),
    );
    ordered.push(
      ...orderLines(
        right.filter((line) => bandOf(line) === band),
        depth + 1,
      ),
    );
    const separator = separators[band];
    if (separator !== undefined) ordered.push(separator);
  }
  return ordered;
}
