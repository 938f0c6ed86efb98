/** Reads CSV and TSV files into table blocks (rows grouped, header repeated, chart hint guessed). */
import { SourceReadError, type TextExtraction } from "../types.ts";
import { decodeSourceText } from "./decode-text.ts";
import { parseDelimited, sniffDelimiter } from "./parse-delimited.ts";
import { tableBlocks, tableFromRows } from "./table-blocks.ts";
import type { TextReader } from "./text-reader.ts";

/** Reads a `.csv` file; the delimiter (`,` `;` tab `|`) is sniffed from the first lines. */
export const readCsv: TextReader = (_fileName, bytes) => readDelimited(bytes, null, "CSV");

/** Reads a `.tsv` file (tab-separated, quotes allowed). */
export const readTsv: TextReader = (_fileName, bytes) => readDelimited(bytes, "\t", "TSV");

function readDelimited(bytes: Uint8Array, delimiter: string | null, formatName: string): TextExtraction {
  const decoded = decodeSourceText(bytes);
  const { warnings } = decoded;
  // Spreadsheet exports may start with a "sep=;" line that names the delimiter.
  const hint = /^sep=(.)[ \t]*\n/u.exec(decoded.text);
  const text = hint ? `\n${decoded.text.slice(hint[0].length)}` : decoded.text;
  const rows = parseDelimited(text, hint?.[1] ?? delimiter ?? sniffDelimiter(text), formatName);
  const width = rows[0]?.cells.length ?? 0;
  let shortRows = 0;
  let firstShortLine = 0;
  const cells = rows.map(({ line, cells: rowCells }) => {
    const trimmed = dropEmptyTail(rowCells, width);
    if (trimmed.length > width) {
      throw new SourceReadError(
        `Malformed ${formatName} at line ${line}: the row has ${trimmed.length} values but the header has ${width} columns.`,
      );
    }
    if (trimmed.length < width) {
      shortRows += 1;
      firstShortLine ||= line;
    }
    return trimmed;
  });
  if (shortRows > 0) {
    warnings.push(
      `${shortRows} ${shortRows === 1 ? "row has" : "rows have"} fewer values than the header (first at line ${firstShortLine}); the missing values are left empty.`,
    );
  }
  const table = tableFromRows(cells);
  if (table.rows.length === 0) throw new SourceReadError(`The ${formatName} file has a header but no rows.`);
  return { title: null, blocks: tableBlocks([], table), warnings };
}

/** Trailing empty cells beyond the header width are a common export artefact, not extra data. */
function dropEmptyTail(cells: string[], width: number): string[] {
  let end = cells.length;
  while (end > width && (cells[end - 1] ?? "").trim() === "") end -= 1;
  return cells.slice(0, end);
}
