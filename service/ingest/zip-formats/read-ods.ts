/**
 * Reads an OpenDocument spreadsheet (.ods, LibreOffice Calc): each sheet is a table under its name, each row
 * cited with the number Calc shows. Formulas count as the values saved with them.
 */
import type { TextReader } from "../text/text-reader.ts";
import { SourceReadError, type TextExtraction, type TextSourceBlock } from "../types.ts";
import { collapseSpace, optionalPart, requiredPart } from "./package-parts.ts";
import { type SheetRow, sheetBlocks } from "./sheet-blocks.ts";
import { numberText } from "./spreadsheet-values.ts";
import {
  attribute,
  childElements,
  findAll,
  path,
  textOf,
  type XmlElement,
  type XmlNode,
} from "./xml-tree.ts";
import { openZip, withArticle } from "./zip-archive.ts";

const formatName = "OpenDocument spreadsheet";
/** Calc pads a sheet with a million repeated empty rows and thousands of empty columns; only filled ones are kept. */
const MAX_REPEAT = 10_000;
/**
 * Filled cells a document may expand to through repeats: far above a real sheet's (a 200,000-row table of ten
 * columns holds 2 million), far below what a few hundred bytes of repeat counts can ask for (100 million).
 */
const CELL_BUDGET = 5_000_000;

export const readOds: TextReader = (_fileName, bytes): TextExtraction => {
  const archive = openZip(bytes, formatName);
  const manifest = archive.text("META-INF/manifest.xml");
  if (manifest?.includes("encryption-data")) {
    throw new SourceReadError(
      `The ${formatName} is password-protected: remove the password and upload it again.`,
    );
  }
  const content = requiredPart(archive, "content.xml", formatName);
  const spreadsheet = path(content, "document-content", "body", "spreadsheet");
  if (!spreadsheet)
    throw new SourceReadError(`This is not ${withArticle(formatName)}: its content holds no sheets.`);
  const blocks: TextSourceBlock[] = [];
  const budget = { cells: CELL_BUDGET };
  for (const table of childElements(spreadsheet, "table")) {
    for (const block of sheetBlocks(attribute(table, "name") ?? "Sheet", tableRows(table, budget)))
      blocks.push(block);
  }
  const meta = optionalPart(archive, "meta.xml");
  const title = meta ? findAll(meta, "title")[0] : undefined;
  return { title: title ? collapseSpace(textOf(title)) || null : null, blocks, warnings: [] };
};

/** Rows with their numbers; rows inside header-row and row-group wrappers count in place. */
function tableRows(table: XmlElement, budget: { cells: number }): SheetRow[] {
  const rows: SheetRow[] = [];
  let number = 0;
  const visit = (element: XmlElement) => {
    for (const child of childElements(element)) {
      if (child.name !== "table-row") {
        if (/^table-(header-)?row(s|-group)$/u.test(child.name)) visit(child);
        continue;
      }
      const repeat = Math.max(1, Number(attribute(child, "number-rows-repeated") ?? 1) || 1);
      const cells = rowCells(child);
      if (cells.some((cell) => cell !== "")) {
        const copies = Math.min(repeat, MAX_REPEAT);
        budget.cells -= copies * cells.length;
        if (budget.cells < 0) {
          throw new SourceReadError(
            `The ${formatName} repeats its filled cells into more than ${CELL_BUDGET / 1_000_000} million; it is not read as a table.`,
          );
        }
        for (let copy = 0; copy < copies; copy++) rows.push({ number: number + copy + 1, cells });
      }
      number += repeat;
    }
  };
  visit(table);
  return rows;
}

function rowCells(row: XmlElement): string[] {
  const cells: string[] = [];
  const pending: string[] = [];
  for (const cell of childElements(row)) {
    if (cell.name !== "table-cell" && cell.name !== "covered-table-cell") continue;
    const repeat = Math.max(1, Number(attribute(cell, "number-columns-repeated") ?? 1) || 1);
    const text = cell.name === "covered-table-cell" ? "" : cellText(cell);
    if (text === "") {
      // Empty cells count only when a filled one follows them.
      for (let copy = 0; copy < Math.min(repeat, MAX_REPEAT); copy++) pending.push("");
      continue;
    }
    for (const empty of pending.splice(0)) cells.push(empty);
    for (let copy = 0; copy < Math.min(repeat, MAX_REPEAT); copy++) cells.push(text);
  }
  return cells;
}

function cellText(cell: XmlElement): string {
  const type = attribute(cell, "value-type");
  switch (type) {
    case "float":
    case "percentage":
    case "currency": {
      const value = Number(attribute(cell, "value"));
      return Number.isFinite(value) && type === "float" ? numberText(value) : displayedText(cell);
    }
    case "date":
      return (attribute(cell, "date-value") ?? "").replace("T00:00:00", "").replace("T", " ");
    case "boolean":
      return attribute(cell, "boolean-value") === "true" ? "TRUE" : "FALSE";
    default:
      return displayedText(cell);
  }
}

/** The cell's paragraphs as shown (for strings, times, currencies and percentages), joined by spaces. */
function displayedText(cell: XmlElement): string {
  return collapseSpace(childElements(cell, "p").map(paragraphText).join(" "));
}

function paragraphText(node: XmlNode): string {
  if (node.type === "text") return node.text;
  if (node.name === "s") return " ".repeat(Math.min(100, Number(attribute(node, "c") ?? 1) || 1));
  if (node.name === "tab" || node.name === "line-break") return " ";
  if (node.name === "annotation") return "";
  return node.children.map(paragraphText).join("");
}
