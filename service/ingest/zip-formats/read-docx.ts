/**
 * Reads a Word document (.docx) from its OOXML parts: headings (by style or outline level) make the heading
 * path; paragraphs, list items and tables become blocks under it; each footnote and endnote follows the
 * paragraph that refers to it, under "Footnote N".
 */
import { HeadingStack } from "../text/heading-stack.ts";
import { tableBlocks, tableFromRows } from "../text/table-blocks.ts";
import { listBlocks, paragraphBlocks, proseEvidence } from "../text/text-blocks.ts";
import type { TextReader } from "../text/text-reader.ts";
import type { TextExtraction, TextSourceBlock } from "../types.ts";
import { collapseSpace, coreTitle, optionalPart, requiredPart } from "./package-parts.ts";
import {
  attribute,
  childElement,
  childElements,
  path,
  valueAt,
  type XmlElement,
  type XmlNode,
} from "./xml-tree.ts";
import { openZip } from "./zip-archive.ts";

const formatName = "Word document";
/** A packaged document has no page address: its prose cites the paragraph. */
const paragraphEvidence = proseEvidence(null);

interface StyleInfo {
  /** 1-based heading level, 0 for the Title style, null for body text. */
  heading: number | null;
  list: boolean;
}

type NoteKind = "footnote" | "endnote";

export const readDocx: TextReader = (_fileName, bytes): TextExtraction => {
  const archive = openZip(bytes, formatName);
  const document = requiredPart(archive, "word/document.xml", formatName);
  const body = path(document, "document", "body");
  const reader = new DocxWalker(
    readStyles(optionalPart(archive, "word/styles.xml")),
    readNotes(optionalPart(archive, "word/footnotes.xml"), "footnote"),
    readNotes(optionalPart(archive, "word/endnotes.xml"), "endnote"),
  );
  if (body) reader.walkBody(body);
  reader.flushList();
  return { title: coreTitle(archive) ?? reader.titleParagraph, blocks: reader.blocks, warnings: [] };
};

class DocxWalker {
  readonly blocks: TextSourceBlock[] = [];
  titleParagraph: string | null = null;
  #styles: Map<string, StyleInfo>;
  #notes: Record<NoteKind, Map<string, XmlElement[]>>;
  #noteNumbers: Record<NoteKind, number> = { footnote: 0, endnote: 0 };
  #headings = new HeadingStack();
  #listItems: string[] = [];

  constructor(
    styles: Map<string, StyleInfo>,
    footnotes: Map<string, XmlElement[]>,
    endnotes: Map<string, XmlElement[]>,
  ) {
    this.#styles = styles;
    this.#notes = { footnote: footnotes, endnote: endnotes };
  }

  walkBody(container: XmlElement): void {
    for (const child of childElements(container)) {
      if (child.name === "p") this.#paragraph(child);
      else if (child.name === "tbl") this.#table(child);
      else if (child.name === "sdt") {
        const content = childElement(child, "sdtContent");
        if (content) this.walkBody(content);
      }
    }
  }

  flushList(): void {
    if (this.#listItems.length === 0) return;
    this.blocks.push(...listBlocks(this.#headings.path, this.#listItems, paragraphEvidence));
    this.#listItems = [];
  }

  #paragraph(paragraph: XmlElement): void {
    const text = collapseSpace(paragraphText(paragraph));
    const style = this.#styleOf(paragraph);
    const outline = valueAt(paragraph, "pPr", "outlineLvl");
    const level = outline !== null && Number(outline) < 9 ? Number(outline) + 1 : style.heading;
    const notes = noteReferences(paragraph);
    if (level !== null && text !== "") {
      this.flushList();
      if (level === 0) this.titleParagraph ??= text;
      else this.#headings.enter(level, text);
    } else if (text !== "" && (style.list || path(paragraph, "pPr", "numPr") !== null)) {
      this.#listItems.push(text);
    } else if (text !== "") {
      this.flushList();
      this.blocks.push(...paragraphBlocks(this.#headings.path, text, paragraphEvidence));
    }
    if (notes.length > 0) {
      this.flushList();
      for (const note of notes) this.#note(note.kind, note.id);
    }
  }

  #note(kind: NoteKind, id: string): void {
    const paragraphs = this.#notes[kind].get(id);
    if (!paragraphs) return;
    this.#noteNumbers[kind] += 1;
    const label = `${kind === "footnote" ? "Footnote" : "Endnote"} ${this.#noteNumbers[kind]}`;
    for (const paragraph of paragraphs) {
      const text = collapseSpace(paragraphText(paragraph));
      if (text !== "")
        this.blocks.push(...paragraphBlocks([...this.#headings.path, label], text, paragraphEvidence));
    }
  }

  #table(table: XmlElement): void {
    this.flushList();
    const rows: string[][] = [];
    let above: string[] = [];
    const notes: ReturnType<typeof noteReferences> = [];
    for (const row of throughControls(table, "tr")) {
      const cells: string[] = [];
      for (const cell of throughControls(row, "tc")) {
        for (const paragraph of cellParagraphs(cell)) notes.push(...noteReferences(paragraph));
        const span = Number(valueAt(cell, "tcPr", "gridSpan") ?? 1) || 1;
        const merge = path(cell, "tcPr", "vMerge");
        // A vertically merged cell shows the text of the cell where the merge starts.
        const continued = merge !== null && attribute(merge, "val") !== "restart";
        const text = continued
          ? (above[cells.length] ?? "")
          : // Every paragraph in the cell: in content controls and nested tables too (forms hold both).
            collapseSpace(cellParagraphs(cell).map(paragraphText).join(" "));
        for (let column = 0; column < Math.max(1, Math.min(span, 64)); column++)
          cells.push(column === 0 ? text : "");
      }
      above = cells;
      rows.push(cells);
    }
    for (const block of tableBlocks(this.#headings.path, tableFromRows(rows))) this.blocks.push(block);
    // The notes its cells refer to follow the table, in Word's numbering order.
    for (const note of notes) this.#note(note.kind, note.id);
  }

  #styleOf(paragraph: XmlElement): StyleInfo {
    const id = valueAt(paragraph, "pPr", "pStyle");
    return (id !== null ? this.#styles.get(id) : undefined) ?? { heading: null, list: false };
  }
}

/** The visible text of a paragraph: runs, tabs and breaks, inserted text; not deleted text or field codes. */
function paragraphText(node: XmlNode): string {
  if (node.type === "text") return "";
  switch (node.name) {
    case "t":
      return node.children.map((child) => (child.type === "text" ? child.text : "")).join("");
    case "tab":
    case "br":
    case "cr":
      return " ";
    case "noBreakHyphen":
      return "-";
    // Word writes a drawing twice, for new and old readers (mc:Choice, mc:Fallback): its text counts once.
    case "Fallback":
    case "del":
    case "instrText":
    case "delText":
    case "pPr":
    case "rPr":
    case "footnoteReference":
    case "endnoteReference":
      return "";
    default:
      return node.children.map(paragraphText).join("");
  }
}

function noteReferences(paragraph: XmlElement): Array<{ kind: NoteKind; id: string }> {
  const found: Array<{ kind: NoteKind; id: string }> = [];
  const visit = (element: XmlElement) => {
    for (const child of childElements(element)) {
      const id = attribute(child, "id");
      if (child.name === "footnoteReference" && id !== null) found.push({ kind: "footnote", id });
      else if (child.name === "endnoteReference" && id !== null) found.push({ kind: "endnote", id });
      else if (child.name !== "del") visit(child);
    }
  };
  visit(paragraph);
  return found;
}

/** Notes by id, the separators Word keeps among them left out. */
function readNotes(part: XmlElement | null, kind: NoteKind): Map<string, XmlElement[]> {
  const notes = new Map<string, XmlElement[]>();
  const root = part ? childElement(part, `${kind}s`) : null;
  for (const note of root ? childElements(root, kind) : []) {
    const type = attribute(note, "type");
    const id = attribute(note, "id");
    if (id === null || (type !== null && type !== "normal")) continue;
    notes.set(id, childElements(note, "p"));
  }
  return notes;
}

/** Heading levels and list styles by style id, following `basedOn` (a custom style based on "heading 2"). */
function readStyles(part: XmlElement | null): Map<string, StyleInfo> {
  const raw = new Map<
    string,
    { name: string; outline: number | null; list: boolean; basedOn: string | null }
  >();
  const root = part ? childElement(part, "styles") : null;
  for (const style of root ? childElements(root, "style") : []) {
    const id = attribute(style, "styleId");
    if (id === null || attribute(style, "type") !== "paragraph") continue;
    const outline = valueAt(style, "pPr", "outlineLvl");
    raw.set(id, {
      name: (valueAt(style, "name") ?? "").toLowerCase(),
      outline: outline === null ? null : Number(outline),
      list: path(style, "pPr", "numPr") !== null,
      basedOn: valueAt(style, "basedOn"),
    });
  }
  const resolved = new Map<string, StyleInfo>();
  const resolve = (id: string, depth: number): StyleInfo => {
    const known = resolved.get(id);
    if (known) return known;
    const style = raw.get(id);
    if (!style || depth > 20) return { heading: null, list: false };
    const named = /^heading ([1-9])$/u.exec(style.name);
    const parent = style.basedOn ? resolve(style.basedOn, depth + 1) : { heading: null, list: false };
    const info: StyleInfo = {
      heading:
        style.name === "title"
          ? 0
          : named
            ? Number(named[1])
            : style.outline !== null && style.outline < 9
              ? style.outline + 1
              : parent.heading,
      list: style.list || /^list (bullet|number)/u.test(style.name) || parent.list,
    };
    resolved.set(id, info);
    return info;
  };
  for (const id of raw.keys()) resolve(id, 0);
  return resolved;
}

/**
 * The paragraphs of a table cell, in content controls and nested tables too; a paragraph's own text boxes are
 * its text (paragraphText), and a legacy copy (`mc:Fallback`) is never read twice.
 */
function cellParagraphs(element: XmlElement): XmlElement[] {
  return childElements(element).flatMap((child) => {
    if (child.name === "p") return [child];
    return child.name === "Fallback" ? [] : cellParagraphs(child);
  });
}

/** Children named `name`, also where a content control (`w:sdt`) or custom XML wraps them, as forms do. */
function throughControls(parent: XmlElement, name: string): XmlElement[] {
  return childElements(parent).flatMap((child) => {
    if (child.name === name) return [child];
    if (child.name === "sdt") {
      const content = childElement(child, "sdtContent");
      return content ? throughControls(content, name) : [];
    }
    return child.name === "customXml" ? throughControls(child, name) : [];
  });
}
