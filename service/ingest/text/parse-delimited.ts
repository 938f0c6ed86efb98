/** RFC 4180 reader for CSV/TSV text (quoted delimiters, quotes and newlines), with delimiter sniffing. */
import { SourceReadError } from "../types.ts";

export interface DelimitedRow {
  /** 1-based line of the file where the row starts. */
  line: number;
  cells: string[];
}

const CANDIDATES = [",", ";", "\t", "|"];
const SNIFF_LINES = 20;

/**
 * Splits text (line ends already `\n`) into rows of cells. Blank lines are skipped.
 * Spaces before an opening quote are allowed; a quote inside an unquoted value is kept as written.
 * @throws SourceReadError naming the line of an unclosed quoted value or of text after a closing quote.
 */
export function parseDelimited(text: string, delimiter: string, formatName = "CSV"): DelimitedRow[] {
  const rows: DelimitedRow[] = [];
  let line = 1;
  let position = 0;
  while (position < text.length) {
    const rowLine = line;
    const cells: string[] = [];
    let endOfRow = false;
    while (!endOfRow) {
      let cell = "";
      const leading = /^[ \t]*"/u.exec(text.slice(position, position + 200));
      if (leading && !(delimiter === "\t" && leading[0].includes("\t"))) {
        const quoteLine = line;
        position += leading[0].length;
        for (;;) {
          const quote = text.indexOf('"', position);
          if (quote === -1) {
            throw new SourceReadError(
              `Malformed ${formatName} at line ${quoteLine}: a quoted value opened on this line is never closed.`,
            );
          }
          const chunk = text.slice(position, quote);
          line += countNewlines(chunk);
          cell += chunk;
          if (text[quote + 1] === '"') {
            cell += '"';
            position = quote + 2;
            continue;
          }
          position = quote + 1;
          break;
        }
        const after = /^[ \t]*/u.exec(text.slice(position, position + 200))?.[0] ?? "";
        const following = text[position + after.length];
        if (
          following !== undefined &&
          following !== delimiter &&
          following !== "\n" &&
          !after.includes(delimiter)
        ) {
          throw new SourceReadError(
            `Malformed ${formatName} at line ${line}: a closing quote is followed by "${following}" instead of "${printable(delimiter)}" or the end of the line.`,
          );
        }
        position += after.includes(delimiter) ? after.indexOf(delimiter) : after.length;
      } else {
        const end = nextStop(text, position, delimiter);
        cell = text.slice(position, end);
        position = end;
      }
      cells.push(cell);
      const stop = text[position];
      position += 1;
      if (stop === "\n") line += 1;
      if (stop !== delimiter) endOfRow = true;
    }
    if (cells.some((cell) => cell.trim() !== "")) rows.push({ line: rowLine, cells });
  }
  return rows;
}

/**
 * Guesses the delimiter of a `.csv` file (`,` `;` tab or `|`): the one that appears the same number of
 * times, outside quotes, on most of the first lines. Falls back to a comma.
 */
export function sniffDelimiter(text: string): string {
  const lines = text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .slice(0, SNIFF_LINES);
  let best = { delimiter: ",", score: 0 };
  for (const delimiter of CANDIDATES) {
    const counts = lines.map((line) => countOutsideQuotes(line, delimiter));
    const frequency = new Map<number, number>();
    for (const count of counts) if (count > 0) frequency.set(count, (frequency.get(count) ?? 0) + 1);
    for (const [count, lineCount] of frequency) {
      // Consistency first, then more columns: "a;b,c" lines with 2 semicolons beat 1 stray comma.
      const score = (lineCount / lines.length) * 1000 + count;
      if (score > best.score) best = { delimiter, score };
    }
  }
  return best.delimiter;
}

function nextStop(text: string, from: number, delimiter: string): number {
  let index = from;
  while (index < text.length && text[index] !== delimiter && text[index] !== "\n") index += 1;
  return index;
}

function countOutsideQuotes(line: string, delimiter: string): number {
  let count = 0;
  let quoted = false;
  for (const character of line) {
    if (character === '"') quoted = !quoted;
    else if (character === delimiter && !quoted) count += 1;
  }
  return count;
}

function countNewlines(text: string): number {
  let count = 0;
  for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1)) count += 1;
  return count;
}

function printable(delimiter: string): string {
  return delimiter === "\t" ? "a tab" : delimiter;
}
