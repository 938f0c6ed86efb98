/** A spreadsheet's sheet as table blocks: the first row names the columns, every row keeps the number the sheet shows. */
import { isDateLike, parseNumber } from "../text/chart-hint.ts";
import { tableBlocks, uniqueNames } from "../text/table-blocks.ts";
import type { TextSourceBlock } from "../types.ts";

export interface SheetRow {
  /** 1-based, as the spreadsheet numbers its rows. */
  number: number;
  cells: string[];
}

/**
 * Table blocks of one sheet under the sheet's name. The first non-empty row is the header unless every
 * value in it is a number or a date; a column without a header is named by its letter ("C").
 */
export function sheetBlocks(sheetName: string, sheetRows: readonly SheetRow[]): TextSourceBlock[] {
  const rows = sheetRows.filter((row) => row.cells.some((cell) => cell.trim() !== ""));
  const width = rows.reduce((widest, row) => Math.max(widest, row.cells.length), 0);
  // Columns empty in every row (a table that starts at column B) are left out; the others keep their letters.
  const used = Array.from({ length: width }, (_, index) => index).filter((index) =>
    rows.some((row) => (row.cells[index] ?? "").trim() !== ""),
  );
  const first = rows[0];
  if (!first || used.length === 0) return [];
  const filled = first.cells.filter((cell) => cell.trim() !== "");
  const hasHeader = !filled.every((cell) => parseNumber(cell) !== null || isDateLike(cell));
  const columns = uniqueNames(
    used.map((index) => (hasHeader ? first.cells[index]?.trim() : "") || columnLetter(index)),
  );
  const body = hasHeader ? rows.slice(1) : rows;
  return tableBlocks(
    [sheetName],
    { columns, rows: body.map((row) => used.map((index) => (row.cells[index] ?? "").trim())) },
    body.map((row) => row.number),
  );
}

/** 0 → "A", 25 → "Z", 26 → "AA". */
export function columnLetter(index: number): string {
  let letters = "";
  for (let rest = index + 1; rest > 0; rest = Math.floor((rest - 1) / 26)) {
    letters = String.fromCharCode(65 + ((rest - 1) % 26)) + letters;
  }
  return letters;
}

/** "C" → 2, "AA" → 26. */
export function columnIndex(letters: string): number {
  let index = 0;
  for (const letter of letters.toUpperCase()) index = index * 26 + (letter.charCodeAt(0) - 64);
  return index - 1;
}
