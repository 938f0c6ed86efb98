/** Turns a table (Markdown, HTML or CSV) into row-group blocks with their columns, rows and chart hint. */
import { rowSentence } from "../../../sdk/core/index.ts";
import type { TextSourceBlock } from "../types.ts";
import { chooseChartHint, isDateLike, parseNumber } from "./chart-hint.ts";

export interface TableData {
  columns: string[];
  rows: string[][];
}

const ROWS_PER_BLOCK = 15;
const MIN_ROWS_PER_BLOCK = 4;
/** Wide rows make long sentences; fewer of them per block keeps a passage near this many words. */
const WORDS_PER_BLOCK = 300;

/**
 * Builds a table from raw rows. With `header: "detect"` the first row is the header unless all its cells
 * are numbers or dates; with `"first"` it always is. Blank or missing header cells become "Column N";
 * short rows are padded.
 */
export function tableFromRows(rawRows: string[][], header: "detect" | "first" = "detect"): TableData {
  const rows = rawRows.filter((row) => row.some((cell) => cell.trim() !== ""));
  // A loop, not Math.max(...rows): a spread of 130,000 rows overflows the call stack.
  const width = rows.reduce((widest, row) => Math.max(widest, row.length), 0);
  const first = rows[0] ?? [];
  const filled = first.filter((cell) => cell.trim() !== "");
  const hasHeader =
    header === "first" ||
    (filled.length > 0 && !filled.every((cell) => parseNumber(cell) !== null || isDateLike(cell)));
  const names = hasHeader ? first : [];
  const columns = uniqueNames(
    Array.from({ length: width }, (_, index) => names[index]?.trim() || `Column ${index + 1}`),
  );
  const body = (hasHeader ? rows.slice(1) : rows).map((row) =>
    Array.from({ length: width }, (_, index) => (row[index] ?? "").trim()),
  );
  return { columns, rows: body };
}

/**
 * One block per group of ~10–20 rows, each repeating the columns and carrying the whole table's chart hint.
 * With `rowNumbers` (one per row of `table`, as a spreadsheet numbers them) each row starts with a "Row"
 * column, so a cited row says where it is.
 */
export function tableBlocks(
  headingPath: string[],
  table: TableData,
  rowNumbers?: readonly number[],
): TextSourceBlock[] {
  const kept = table.rows.flatMap((row, index) =>
    rowSentence(table.columns, row) === "" ? [] : [{ row, number: rowNumbers?.[index] }],
  );
  if (kept.length === 0) return [];
  const chartHint = chooseChartHint(
    table.columns,
    kept.map(({ row }) => row),
  );
  const columns = rowNumbers ? [rowColumnName(table.columns), ...table.columns] : table.columns;
  const rows = kept.map(({ row, number }) => (rowNumbers ? [String(number ?? ""), ...row] : row));
  const sentences = rows.map((row) => rowSentence(columns, row));
  const averageWords =
    sentences.reduce((sum, sentence) => sum + sentence.split(" ").length, 0) / sentences.length;
  const perBlock = Math.max(
    MIN_ROWS_PER_BLOCK,
    Math.min(ROWS_PER_BLOCK, Math.floor(WORDS_PER_BLOCK / averageWords)),
  );
  const groupSize = Math.ceil(rows.length / Math.ceil(rows.length / perBlock));
  const blocks: TextSourceBlock[] = [];
  for (let start = 0; start < rows.length; start += groupSize) {
    blocks.push({
      headingPath: [...headingPath],
      sentences: sentences.slice(start, start + groupSize).map((text) => ({ text })),
      evidence: {
        kind: "table",
        columns: [...columns],
        rows: rows.slice(start, start + groupSize),
        chartHint,
      },
    });
  }
  return blocks;
}

/** "Row", unless the table has a column of that name already. */
function rowColumnName(columns: readonly string[]): string {
  return columns.includes("Row") ? "Sheet row" : "Row";
}

/** Names made unique by a count: ["A", "A"] → ["A", "A (2)"]. */
export function uniqueNames(names: string[]): string[] {
  const seen = new Map<string, number>();
  return names.map((name) => {
    const count = (seen.get(name) ?? 0) + 1;
    seen.set(name, count);
    return count === 1 ? name : `${name} (${count})`;
  });
}
