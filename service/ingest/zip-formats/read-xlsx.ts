/**
 * Reads an Excel workbook (.xlsx): each worksheet is a table under the sheet's name, each row cited with the
 * row number Excel shows. Formulas count as the values Excel saved with them; dates are shown as dates.
 */
import type { TextReader } from "../text/text-reader.ts";
import { SourceReadError, type TextExtraction, type TextSourceBlock } from "../types.ts";
import { coreTitle, optionalPart, relationships, requiredPart } from "./package-parts.ts";
import { columnIndex, type SheetRow, sheetBlocks } from "./sheet-blocks.ts";
import { excelSerialDate, isDateFormat, numberText } from "./spreadsheet-values.ts";
import {
  attribute,
  childElement,
  childElements,
  path,
  relationshipsNamespace,
  textOf,
  type XmlElement,
} from "./xml-tree.ts";
import { openZip } from "./zip-archive.ts";

const formatName = "Excel workbook";
const WORKSHEET_TYPE = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet";
/** Excel's built-in number formats that show a date or a time. */
const BUILT_IN_DATE_FORMATS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 45, 46, 47]);

export const readXlsx: TextReader = (_fileName, bytes): TextExtraction => {
  const archive = openZip(bytes, formatName);
  const workbookPart = "xl/workbook.xml";
  const workbook = requiredPart(archive, workbookPart, formatName);
  const links = relationships(archive, workbookPart);
  const shared = readSharedStrings(optionalPart(archive, "xl/sharedStrings.xml"));
  const dateStyles = readDateStyles(optionalPart(archive, "xl/styles.xml"));
  const properties = path(workbook, "workbook", "workbookPr");
  const date1904 = properties ? attribute(properties, "date1904") : null;
  const context: CellContext = {
    shared,
    dateStyles,
    date1904: date1904 === "1" || date1904 === "true",
    uncached: 0,
    cells: 0,
  };
  const sheets = path(workbook, "workbook", "sheets");
  const blocks: TextSourceBlock[] = [];
  // A sheet listed twice is read once (a workbook can list one part a million times).
  const read = new Set<string>();
  for (const sheet of sheets ? childElements(sheets, "sheet") : []) {
    const link = links.get(attribute(sheet, "id", relationshipsNamespace) ?? "");
    if (!link || link.type !== WORKSHEET_TYPE || read.has(link.target)) continue;
    read.add(link.target);
    const part = optionalPart(archive, link.target);
    const data = part ? path(part, "worksheet", "sheetData") : null;
    if (!data) continue;
    for (const block of sheetBlocks(attribute(sheet, "name") ?? link.target, sheetRows(data, context)))
      blocks.push(block);
  }
  const warnings =
    context.uncached > 0
      ? [
          `${context.uncached} ${context.uncached === 1 ? "formula has" : "formulas have"} no value saved with the file (it was saved without calculating); those cells are left empty.`,
        ]
      : [];
  return { title: coreTitle(archive), blocks, warnings };
};

interface CellContext {
  shared: string[];
  dateStyles: Set<number>;
  date1904: boolean;
  /** Formulas met without a saved value. */
  uncached: number;
  /** Cells of the rows read so far, padding included. */
  cells: number;
}

/**
 * Cells, padding included, the rows of a workbook may reach: far above a real sheet's, far below what a cell
 * in the last column of every row asks for (16,384 a row).
 */
const CELL_BUDGET = 20_000_000;

function sheetRows(data: XmlElement, context: CellContext): SheetRow[] {
  const rows: SheetRow[] = [];
  let previous = 0;
  for (const row of childElements(data, "row")) {
    const number = Number(attribute(row, "r")) || previous + 1;
    previous = number;
    const cells: string[] = [];
    let nextColumn = 0;
    for (const cell of childElements(row, "c")) {
      const reference = /^([A-Z]+)\d*$/iu.exec(attribute(cell, "r") ?? "");
      const column = reference?.[1] ? columnIndex(reference[1]) : nextColumn;
      // A reference far past the used columns is a damaged file; such a cell is not worth a huge empty row.
      if (column > 16_383) continue;
      while (cells.length < column) cells.push("");
      cells[column] = cellText(cell, context);
      nextColumn = column + 1;
    }
    context.cells += cells.length;
    if (context.cells > CELL_BUDGET) {
      throw new SourceReadError(
        `The Excel workbook's rows reach out to more than ${CELL_BUDGET / 1_000_000} million cells; it is not read as a table.`,
      );
    }
    rows.push({ number, cells });
  }
  return rows;
}

function cellText(cell: XmlElement, context: CellContext): string {
  const type = attribute(cell, "t") ?? "n";
  const value = childElement(cell, "v");
  const raw = value ? textOf(value) : null;
  if (type === "inlineStr") {
    const inline = childElement(cell, "is");
    return inline ? richText(inline) : "";
  }
  if (raw === null) {
    if (childElement(cell, "f")) context.uncached += 1;
    return "";
  }
  switch (type) {
    case "s":
      return context.shared[Number(raw)] ?? "";
    case "b":
      return raw === "1" ? "TRUE" : "FALSE";
    case "str":
    case "e":
    case "d":
      return raw;
    default: {
      const number = Number(raw);
      if (!Number.isFinite(number)) return raw;
      const style = Number(attribute(cell, "s") ?? 0);
      return context.dateStyles.has(style) ? excelSerialDate(number, context.date1904) : numberText(number);
    }
  }
}

/** A string item's text: its `t`, or its runs' `t`s; phonetic guides (`rPh`) left out. */
function richText(item: XmlElement): string {
  return childElements(item)
    .map((child) => {
      if (child.name === "t") return textOf(child);
      if (child.name === "r") return childElements(child, "t").map(textOf).join("");
      return "";
    })
    .join("");
}

function readSharedStrings(part: XmlElement | null): string[] {
  const table = part ? childElement(part, "sst") : null;
  return table ? childElements(table, "si").map(richText) : [];
}

/** The cell style indexes (`s`) whose number format shows a date or a time. */
function readDateStyles(part: XmlElement | null): Set<number> {
  const styles = part ? childElement(part, "styleSheet") : null;
  if (!styles) return new Set();
  const custom = new Map<number, string>();
  const formats = childElement(styles, "numFmts");
  for (const format of formats ? childElements(formats, "numFmt") : []) {
    custom.set(Number(attribute(format, "numFmtId")), attribute(format, "formatCode") ?? "");
  }
  const dates = new Set<number>();
  const cellFormats = childElement(styles, "cellXfs");
  (cellFormats ? childElements(cellFormats, "xf") : []).forEach((format, index) => {
    const id = Number(attribute(format, "numFmtId") ?? 0);
    const code = custom.get(id);
    if (code === undefined ? BUILT_IN_DATE_FORMATS.has(id) : isDateFormat(code)) dates.add(index);
  });
  return dates;
}
