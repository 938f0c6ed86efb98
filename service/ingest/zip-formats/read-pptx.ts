/**
 * Reads a PowerPoint presentation (.pptx): one slide is one location. Its title names it ("Slide 3: Budget"),
 * its text boxes and tables are blocks under that name, and its speaker notes are blocks under "Notes".
 */
import { tableBlocks, tableFromRows } from "../text/table-blocks.ts";
import { listBlocks, proseEvidence } from "../text/text-blocks.ts";
import type { TextReader } from "../text/text-reader.ts";
import type { TextExtraction, TextSourceBlock } from "../types.ts";
import { collapseSpace, coreTitle, optionalPart, relationships, requiredPart } from "./package-parts.ts";
import {
  attribute,
  childElement,
  childElements,
  findAll,
  path,
  relationshipsNamespace,
  type XmlElement,
  type XmlNode,
} from "./xml-tree.ts";
import { openZip, type ZipArchive } from "./zip-archive.ts";

const formatName = "PowerPoint presentation";
/** A packaged document has no page address: its prose cites the paragraph. */
const paragraphEvidence = proseEvidence(null);
const TITLE_PLACEHOLDERS = new Set(["title", "ctrTitle"]);
/** Placeholders that repeat the slide number, date or footer, or stand for the slide picture on a notes page. */
const SKIPPED_PLACEHOLDERS = new Set(["sldNum", "dt", "ftr", "hdr", "sldImg"]);
const NOTES_TYPE = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/notesSlide";

export const readPptx: TextReader = (_fileName, bytes): TextExtraction => {
  const archive = openZip(bytes, formatName);
  const presentationPart = "ppt/presentation.xml";
  const presentation = requiredPart(archive, presentationPart, formatName);
  const links = relationships(archive, presentationPart);
  const slideIds = path(presentation, "presentation", "sldIdLst");
  // A slide listed twice is read once: a deck listing one slide a million times must not read it as often.
  const slideParts = new Set(
    (slideIds ? childElements(slideIds, "sldId") : [])
      .map((slide) => links.get(attribute(slide, "id", relationshipsNamespace) ?? "")?.target)
      .filter((part): part is string => part !== undefined && archive.has(part)),
  );
  const blocks: TextSourceBlock[] = [];
  let firstTitle: string | null = null;
  [...slideParts].forEach((part, index) => {
    const slide = readSlide(archive, part, index + 1);
    firstTitle ??= slide.title;
    for (const block of slide.blocks) blocks.push(block);
  });
  return { title: coreTitle(archive) ?? firstTitle, blocks, warnings: [] };
};

function readSlide(
  archive: ZipArchive,
  part: string,
  number: number,
): { title: string | null; blocks: TextSourceBlock[] } {
  const slide = optionalPart(archive, part);
  const tree = slide ? path(slide, "sld", "cSld", "spTree") : null;
  const shapes = tree ? shapeContents(tree) : [];
  const title = shapes.find(
    (shape) => shape.placeholder !== null && TITLE_PLACEHOLDERS.has(shape.placeholder),
  );
  const titleText = title ? collapseSpace(title.paragraphs.join(" ")) : "";
  const heading = titleText === "" ? `Slide ${number}` : `Slide ${number}: ${titleText}`;
  const blocks: TextSourceBlock[] = [];
  for (const shape of shapes) {
    if (shape === title) continue;
    if (shape.table) blocks.push(...tableBlocks([heading], tableFromRows(shape.table)));
    else blocks.push(...listBlocks([heading], shape.paragraphs, paragraphEvidence));
  }
  const notesPart = [...relationships(archive, part).values()].find(
    (link) => link.type === NOTES_TYPE,
  )?.target;
  const notes = notesPart ? optionalPart(archive, notesPart) : null;
  const notesTree = notes ? path(notes, "notes", "cSld", "spTree") : null;
  for (const shape of notesTree ? shapeContents(notesTree) : []) {
    blocks.push(...listBlocks([heading, "Notes"], shape.paragraphs, paragraphEvidence));
  }
  return { title: titleText === "" ? null : titleText, blocks };
}

interface ShapeContent {
  placeholder: string | null;
  paragraphs: string[];
  table: string[][] | null;
}

/** Text boxes and tables of a shape tree in their order, groups opened, slide-number and footer placeholders left out. */
function shapeContents(tree: XmlElement): ShapeContent[] {
  const contents: ShapeContent[] = [];
  for (const shape of childElements(tree)) {
    if (shape.name === "grpSp") contents.push(...shapeContents(shape));
    else if (shape.name === "AlternateContent") {
      // A shape for newer readers (equations, ink) with a copy for older ones: its newer form, once.
      const choice = childElement(shape, "Choice");
      if (choice) contents.push(...shapeContents(choice));
    } else if (shape.name === "sp") {
      const placeholder = path(shape, "nvSpPr", "nvPr", "ph");
      const type = placeholder ? (attribute(placeholder, "type") ?? "body") : null;
      if (type !== null && SKIPPED_PLACEHOLDERS.has(type)) continue;
      const body = childElement(shape, "txBody");
      const paragraphs = body ? textParagraphs(body) : [];
      if (paragraphs.length > 0) contents.push({ placeholder: type, paragraphs, table: null });
    } else if (shape.name === "graphicFrame") {
      for (const table of findAll(shape, "tbl")) {
        const rows = childElements(table, "tr").map((row) =>
          childElements(row, "tc").map((cell) => {
            const body = childElement(cell, "txBody");
            return body ? textParagraphs(body).join(" ") : "";
          }),
        );
        contents.push({ placeholder: null, paragraphs: [], table: rows });
      }
    }
  }
  return contents;
}

/** The non-empty paragraphs (`a:p`) of a text body, runs joined, line breaks as spaces. */
function textParagraphs(body: XmlElement): string[] {
  return childElements(body, "p")
    .map((paragraph) => collapseSpace(drawingText(paragraph)))
    .filter((text) => text !== "");
}

function drawingText(node: XmlNode): string {
  if (node.type === "text") return "";
  if (node.name === "t")
    return node.children.map((child) => (child.type === "text" ? child.text : "")).join("");
  if (node.name === "br") return " ";
  if (node.name === "pPr" || node.name === "rPr" || node.name === "Fallback") return "";
  return node.children.map(drawingText).join("");
}
