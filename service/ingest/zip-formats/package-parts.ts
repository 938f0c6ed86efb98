/** Finding parts inside a zipped document: OOXML relationships, relative paths, the title in the core properties. */
import { SourceReadError } from "../types.ts";
import { attribute, findAll, parseXml, textOf, type XmlElement } from "./xml-tree.ts";
import { withArticle, type ZipArchive } from "./zip-archive.ts";

/** What each zipped format is, by the part that defines it, to say what a file with the wrong extension really is. */
const KNOWN_PACKAGES: Array<{ part: string; name: string }> = [
  { part: "word/document.xml", name: "a Word document (.docx)" },
  { part: "ppt/presentation.xml", name: "a PowerPoint presentation (.pptx)" },
  { part: "xl/workbook.xml", name: "an Excel workbook (.xlsx)" },
  { part: "META-INF/container.xml", name: "an EPUB book (.epub)" },
];

/** The part a reader needs, parsed; a missing one means the file is another kind of package. */
export function requiredPart(archive: ZipArchive, name: string, formatName: string): XmlElement {
  const text = archive.text(name);
  if (text === null) {
    const actual = actualKind(archive);
    throw new SourceReadError(
      actual
        ? `This is not ${withArticle(formatName)}: it looks like ${actual}. Rename it with the right extension and upload it again.`
        : `This is not ${withArticle(formatName)}: it has no ${name}.`,
    );
  }
  return parseXml(text);
}

export function optionalPart(archive: ZipArchive, name: string): XmlElement | null {
  const text = archive.text(name);
  return text === null ? null : parseXml(text);
}

function actualKind(archive: ZipArchive): string | null {
  const mimetype = archive.text("mimetype")?.trim();
  if (mimetype === "application/vnd.oasis.opendocument.spreadsheet")
    return "an OpenDocument spreadsheet (.ods)";
  if (mimetype?.startsWith("application/vnd.oasis.opendocument.")) return "an OpenDocument file";
  return KNOWN_PACKAGES.find((known) => archive.has(known.part))?.name ?? null;
}

/** A path relative to the folder of `from` ("word/document.xml" + "media/a.png" → "word/media/a.png"). */
export function resolvePart(from: string, target: string): string {
  const decoded = safeDecode(target.split("#")[0] ?? "");
  const parts = decoded.startsWith("/") ? [] : from.split("/").slice(0, -1);
  for (const segment of decoded.split("/")) {
    if (segment === "..") parts.pop();
    else if (segment !== "." && segment !== "") parts.push(segment);
  }
  return parts.join("/");
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The relationships of an OOXML part by id: target part paths, with their type. */
export function relationships(
  archive: ZipArchive,
  part: string,
): Map<string, { target: string; type: string }> {
  const folder = part.split("/").slice(0, -1).join("/");
  const file = part.split("/").at(-1) ?? "";
  const rels = optionalPart(archive, `${folder ? `${folder}/` : ""}_rels/${file}.rels`);
  const byId = new Map<string, { target: string; type: string }>();
  if (!rels) return byId;
  for (const relationship of findAll(rels, "Relationship")) {
    const id = attribute(relationship, "Id");
    const target = attribute(relationship, "Target");
    if (id === null || target === null || attribute(relationship, "TargetMode") === "External") continue;
    byId.set(id, { target: resolvePart(part, target), type: attribute(relationship, "Type") ?? "" });
  }
  return byId;
}

/** The title the author set in File › Properties (docProps/core.xml), or null. */
export function coreTitle(archive: ZipArchive): string | null {
  const core = optionalPart(archive, "docProps/core.xml");
  const title = core ? findAll(core, "title")[0] : undefined;
  const text = title ? collapseSpace(textOf(title)) : "";
  return text === "" ? null : text;
}

export function collapseSpace(text: string): string {
  return text.replace(/\s+/gu, " ").trim();
}
