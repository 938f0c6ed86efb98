/** CSV/TSV text into rows (csv-parse, RFC 4180 with lenient spacing), each with its line, and delimiter sniffing. */
import { CsvError, type Options, parse } from "csv-parse/sync";
import { SourceReadError } from "../types.ts";

export interface DelimitedRow {
  /** 1-based line of the file where the row starts. */
  line: number;
  cells: string[];
}

/** A record as csv-parse gives it with `raw` and `info`: its cells, its source text, the line it ends on. */
interface PlacedRecord {
  record: string[];
  raw: string;
  info: { lines: number };
}

const CANDIDATES = [",", ";", "\t", "|"];
const SNIFF_LINES = 20;

/**
 * Spaces around a quoted value are allowed, a quote inside an unquoted value is kept as written,
 * rows may differ in length (the reader reports that itself, naming the line).
 */
const LENIENT = {
  relax_column_count: true,
  relax_quotes: true,
  ltrim: true,
  rtrim: true,
  skip_empty_lines: true,
} satisfies Options;

/**
 * Splits text (line ends already `\n`) into rows of cells. Blank rows are skipped.
 * @throws SourceReadError naming the line of an unclosed quoted value or of text after a closing quote.
 */
export function parseDelimited(text: string, delimiter: string, formatName = "CSV"): DelimitedRow[] {
  let records: PlacedRecord[];
  try {
    // csv-parse's types do not follow `raw` and `info`, which wrap each record with its text and position.
    records = parse(text, { ...LENIENT, delimiter, raw: true, info: true }) as unknown as PlacedRecord[];
  } catch (error) {
    if (error instanceof CsvError) throw malformed(error, text, delimiter, formatName);
    throw error;
  }
  return records
    .filter(({ record }) => record.some((cell) => cell.trim() !== ""))
    .map(({ record, raw, info }) => ({ line: startLine(info.lines, raw), cells: record }));
}

/**
 * Guesses the delimiter of a `.csv` file (`,` `;` tab or `|`): the one that splits most of the first
 * lines into the same number of values. Falls back to a comma.
 */
export function sniffDelimiter(text: string): string {
  const sample = text
    .split("\n", SNIFF_LINES * 10)
    .filter((line) => line.trim() !== "")
    .slice(0, SNIFF_LINES)
    .join("\n");
  let best = { delimiter: ",", score: 0 };
  for (const delimiter of CANDIDATES) {
    // The sample may end inside a quoted value; such a row is left out rather than failing the guess.
    const records = parse(sample, { ...LENIENT, delimiter, skip_records_with_error: true });
    const frequency = new Map<number, number>();
    for (const record of records) {
      const count = record.length - 1;
      if (count > 0) frequency.set(count, (frequency.get(count) ?? 0) + 1);
    }
    for (const [count, rowCount] of frequency) {
      // Consistency first, then more columns: "a;b,c" rows with 2 semicolons beat 1 stray comma.
      const score = (rowCount / records.length) * 1000 + count;
      if (score > best.score) best = { delimiter, score };
    }
  }
  return best.delimiter;
}

/** A record's first line: the parser reports the line it has reached; its raw text spans back to the start. */
function startLine(reachedLine: number, raw: string): number {
  // Blank lines skipped before the record are part of its raw text but not of the record.
  return reachedLine - countNewlines(raw.replace(/^\n+/u, "").replace(/\n$/u, ""));
}

function malformed(error: CsvError, text: string, delimiter: string, formatName: string): SourceReadError {
  const reached = typeof error.lines === "number" ? error.lines : 1;
  const raw = typeof error.raw === "string" ? error.raw : "";
  if (error.code === "CSV_QUOTE_NOT_CLOSED") {
    return new SourceReadError(
      `Malformed ${formatName} at line ${startLine(reached, raw)}: a quoted value opened on this line is never closed.`,
    );
  }
  if (
    error.code === "CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE" ||
    error.code === "CSV_INVALID_CLOSING_QUOTE"
  ) {
    // The record's raw text runs to the closing quote (sometimes a little past it) on the line reached.
    const quoteColumn = raw.slice(raw.lastIndexOf("\n") + 1).lastIndexOf('"');
    const line = text.split("\n", reached)[reached - 1] ?? "";
    const following = line
      .slice(quoteColumn + 1)
      .trimStart()
      .charAt(0);
    return new SourceReadError(
      `Malformed ${formatName} at line ${reached}: a closing quote is followed by "${following}" instead of "${printable(delimiter)}" or the end of the line.`,
    );
  }
  return new SourceReadError(`Malformed ${formatName} at line ${reached}: ${error.message}`);
}

function countNewlines(text: string): number {
  let count = 0;
  for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1)) count += 1;
  return count;
}

function printable(delimiter: string): string {
  return delimiter === "\t" ? "a tab" : delimiter;
}
