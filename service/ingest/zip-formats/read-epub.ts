/**
 * Reads an EPUB book: its chapters in reading order (the spine), each chapter's title from the table of
 * contents heading the blocks read from its XHTML (headings inside it nest below).
 */
import { htmlBlocks } from "../text/html-blocks.ts";
import {
  findElement,
  attribute as htmlAttribute,
  isElement,
  parseHtmlDocument,
  textContent,
} from "../text/html-tree.ts";
import { proseEvidence } from "../text/text-blocks.ts";
import type { TextReader } from "../text/text-reader.ts";
import { SourceReadError, type TextExtraction, type TextSourceBlock } from "../types.ts";
import { collapseSpace, optionalPart, requiredPart, resolvePart } from "./package-parts.ts";
import {
  attribute,
  childElement,
  childElements,
  findAll,
  path,
  textOf,
  type XmlElement,
} from "./xml-tree.ts";
import { openZip, type ZipArchive } from "./zip-archive.ts";

const formatName = "EPUB book";
/** A packaged document has no page address: its prose cites the paragraph. */
const paragraphEvidence = proseEvidence(null);
const CONTENT_TYPES = new Set(["application/xhtml+xml", "text/html"]);
/** Encryption algorithms that only obfuscate embedded fonts; any other means the book is locked (DRM). */
const FONT_OBFUSCATION = new Set(["http://www.idpf.org/2008/embedding", "http://ns.adobe.com/pdf/enc#RC"]);

interface ManifestItem {
  part: string;
  mediaType: string;
  properties: string;
}

export const readEpub: TextReader = (_fileName, bytes): TextExtraction => {
  const archive = openZip(bytes, formatName);
  const container = requiredPart(archive, "META-INF/container.xml", formatName);
  const rootFile = findAll(container, "rootfile")[0];
  const packagePart = rootFile ? resolvePart("", attribute(rootFile, "full-path") ?? "") : "";
  const opf = packagePart ? optionalPart(archive, packagePart) : null;
  if (!opf) throw new SourceReadError(`The ${formatName} is damaged: its package document cannot be found.`);
  const locked = lockedParts(archive);
  const manifest = new Map<string, ManifestItem>();
  for (const item of findAll(opf, "item")) {
    const id = attribute(item, "id");
    const href = attribute(item, "href");
    if (id === null || href === null) continue;
    manifest.set(id, {
      part: resolvePart(packagePart, href),
      mediaType: attribute(item, "media-type") ?? "",
      properties: attribute(item, "properties") ?? "",
    });
  }
  const spine = path(opf, "package", "spine");
  const chapterTitles = tableOfContents(archive, manifest, spine);
  const blocks: TextSourceBlock[] = [];
  let lockedChapters = 0;
  // A chapter listed twice in the spine is read once (a book can list one part a million times).
  const read = new Set<string>();
  for (const reference of spine ? childElements(spine, "itemref") : []) {
    const item = manifest.get(attribute(reference, "idref") ?? "");
    if (!item || !CONTENT_TYPES.has(item.mediaType) || read.has(item.part)) continue;
    read.add(item.part);
    if (locked.has(item.part)) {
      lockedChapters += 1;
      continue;
    }
    const source = archive.text(item.part);
    if (source === null) continue;
    for (const block of chapterBlocks(source, chapterTitles.get(item.part) ?? null)) blocks.push(block);
  }
  if (lockedChapters > 0 && blocks.length === 0) {
    throw new SourceReadError(
      `The ${formatName} is locked with DRM: its chapters are encrypted and cannot be read.`,
    );
  }
  const titleElement = findAll(opf, "title")[0];
  const title = titleElement ? collapseSpace(textOf(titleElement)) : "";
  const warnings =
    lockedChapters > 0
      ? [
          `${lockedChapters} ${lockedChapters === 1 ? "chapter is" : "chapters are"} encrypted (DRM) and ${lockedChapters === 1 ? "was" : "were"} left out.`,
        ]
      : [];
  return { title: title || null, blocks, warnings };
};

/** A chapter's blocks, its title above its own headings unless its first heading already says it. */
function chapterBlocks(source: string, tocTitle: string | null): TextSourceBlock[] {
  const document = parseHtmlDocument(source);
  const body = findElement(document, (element) => element.tagName === "body") ?? document;
  const { blocks } = htmlBlocks(body, { evidence: paragraphEvidence, baseUrl: null });
  const titleElement = findElement(document, (element) => element.tagName === "title");
  const chapter = tocTitle ?? (titleElement ? collapseSpace(textContent(titleElement)) : "");
  if (chapter === "") return blocks;
  return blocks.map((block) =>
    block.headingPath[0] === chapter ? block : { ...block, headingPath: [chapter, ...block.headingPath] },
  );
}

/** Chapter titles by content part: the first entry of the EPUB 3 navigation document or the EPUB 2 NCX naming that part. */
function tableOfContents(
  archive: ZipArchive,
  manifest: Map<string, ManifestItem>,
  spine: XmlElement | null,
): Map<string, string> {
  const titles = new Map<string, string>();
  const add = (from: string, href: string | null, label: string) => {
    const text = collapseSpace(label);
    if (href === null || text === "") return;
    const part = resolvePart(from, href);
    if (!titles.has(part)) titles.set(part, text);
  };
  const nav = [...manifest.values()].find((item) => item.properties.split(/\s+/u).includes("nav"));
  const navSource = nav ? archive.text(nav.part) : null;
  if (nav && navSource !== null) {
    const document = parseHtmlDocument(navSource);
    const toc =
      findElement(
        document,
        (element) => element.tagName === "nav" && (htmlAttribute(element, "epub:type") ?? "").includes("toc"),
      ) ?? findElement(document, (element) => element.tagName === "nav");
    if (toc) {
      const links: Array<{ href: string | null; text: string }> = [];
      const visit = (element: typeof toc) => {
        for (const child of element.childNodes) {
          if (!isElement(child)) continue;
          if (child.tagName === "a")
            links.push({ href: htmlAttribute(child, "href"), text: textContent(child) });
          else visit(child);
        }
      };
      visit(toc);
      for (const link of links) add(nav.part, link.href, link.text);
    }
  }
  const ncxItem = manifest.get((spine ? attribute(spine, "toc") : null) ?? "");
  const ncx = ncxItem ? optionalPart(archive, ncxItem.part) : null;
  if (ncxItem && ncx) {
    for (const point of findAll(ncx, "navPoint"))
      visitNavPoint(point, (href, label) => add(ncxItem.part, href, label));
  }
  return titles;
}

function visitNavPoint(point: XmlElement, add: (href: string | null, label: string) => void): void {
  const label = path(point, "navLabel", "text");
  const content = childElement(point, "content");
  add(content ? attribute(content, "src") : null, label ? textOf(label) : "");
  for (const child of childElements(point, "navPoint")) visitNavPoint(child, add);
}

/** Content parts encrypted with more than font obfuscation (META-INF/encryption.xml). */
function lockedParts(archive: ZipArchive): Set<string> {
  const encryption = optionalPart(archive, "META-INF/encryption.xml");
  const locked = new Set<string>();
  for (const data of encryption ? findAll(encryption, "EncryptedData") : []) {
    const method = childElement(data, "EncryptionMethod");
    const reference = path(data, "CipherData", "CipherReference");
    const uri = reference ? attribute(reference, "URI") : null;
    if (uri !== null && !FONT_OBFUSCATION.has((method ? attribute(method, "Algorithm") : null) ?? "")) {
      locked.add(resolvePart("", uri));
    }
  }
  return locked;
}
