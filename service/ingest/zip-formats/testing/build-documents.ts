/**
 * Small DOCX, PPTX, XLSX, ODS and EPUB files built in code from their XML parts, as Word, PowerPoint,
 * Excel, Calc and e-book tools lay them out, for reader tests and hostile uploads.
 */
import AdmZip from "adm-zip";

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
const R = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const A = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"';
const P = 'xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';
const PKG_RELS = 'xmlns="http://schemas.openxmlformats.org/package/2006/relationships"';
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const xml = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/** A ZIP of the given parts, in the given order (a `mimetype` first is stored, as ODF and EPUB require). */
export function zipOf(parts: Record<string, string | Uint8Array>): Uint8Array {
  const zip = new AdmZip();
  for (const [name, content] of Object.entries(parts)) {
    zip.addFile(name, Buffer.from(typeof content === "string" ? content : content));
    if (name === "mimetype") {
      const entry = zip.getEntry(name);
      if (entry) entry.header.method = 0;
    }
  }
  return new Uint8Array(zip.toBuffer());
}

function relationshipsXml(links: Array<{ id: string; type: string; target: string }>): string {
  return `${xml}<Relationships ${PKG_RELS}>${links
    .map((link) => `<Relationship Id="${link.id}" Type="${REL}/${link.type}" Target="${link.target}"/>`)
    .join("")}</Relationships>`;
}

function coreXml(title: string | null): string {
  return `${xml}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/">${title ? `<dc:title>${title}</dc:title>` : ""}</cp:coreProperties>`;
}

/** Word: `body` is the inside of `<w:body>`; styles define Title, Heading1–3 and ListBullet. */
export function docx(body: string, options: { footnotes?: string; title?: string } = {}): Uint8Array {
  const styles = [
    ["Title", "Title"],
    ["Heading1", "heading 1"],
    ["Heading2", "heading 2"],
    ["Heading3", "heading 3"],
  ]
    .map(([id, name]) => `<w:style w:type="paragraph" w:styleId="${id}"><w:name w:val="${name}"/></w:style>`)
    .join("");
  return zipOf({
    "[Content_Types].xml": `${xml}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`,
    "word/document.xml": `${xml}<w:document ${W} ${R}><w:body>${body}<w:sectPr/></w:body></w:document>`,
    "word/styles.xml": `${xml}<w:styles ${W}>${styles}<w:style w:type="paragraph" w:styleId="ListBullet"><w:name w:val="List Bullet"/><w:pPr><w:numPr><w:numId w:val="1"/></w:numPr></w:pPr></w:style><w:style w:type="paragraph" w:styleId="MyChapter"><w:name w:val="My chapter"/><w:basedOn w:val="Heading1"/></w:style></w:styles>`,
    ...(options.footnotes
      ? {
          "word/footnotes.xml": `${xml}<w:footnotes ${W}><w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>${options.footnotes}</w:footnotes>`,
        }
      : {}),
    ...(options.title ? { "docProps/core.xml": coreXml(options.title) } : {}),
  });
}

/** A Word paragraph, with a style when given; `runs` may hold raw run XML. */
export function wordParagraph(text: string, style?: string): string {
  const properties = style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : "";
  return `<w:p>${properties}<w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;
}

export function wordTable(rows: string[][]): string {
  return `<w:tbl>${rows
    .map((row) => `<w:tr>${row.map((cell) => `<w:tc>${wordParagraph(cell)}</w:tc>`).join("")}</w:tr>`)
    .join("")}</w:tbl>`;
}

export interface Slide {
  title?: string;
  body?: string[];
  notes?: string[];
  table?: string[][];
  /** Raw shape-tree XML after the body (e.g. a shape wrapped in `mc:AlternateContent`). */
  shapes?: string;
}

function textBody(paragraphs: string[]): string {
  return `<p:txBody><a:bodyPr/>${paragraphs.map((text) => `<a:p><a:r><a:t>${text}</a:t></a:r></a:p>`).join("")}</p:txBody>`;
}

export function placeholderShape(type: string | null, paragraphs: string[]): string {
  const placeholder = type === null ? "" : `<p:ph type="${type}"/>`;
  return `<p:sp><p:nvSpPr><p:cNvPr id="2" name="s"/><p:cNvSpPr/><p:nvPr>${placeholder}</p:nvPr></p:nvSpPr>${textBody(paragraphs)}</p:sp>`;
}

/** PowerPoint: slides in order, each with a title, body paragraphs, a table and notes as given. */
export function pptx(slides: Slide[], options: { title?: string } = {}): Uint8Array {
  const parts: Record<string, string> = {
    "[Content_Types].xml": `${xml}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`,
    // Slides listed out of file order: the list, not the file names, gives the order.
    "ppt/presentation.xml": `${xml}<p:presentation ${P} ${R}><p:sldIdLst>${slides
      .map((_, index) => `<p:sldId id="${256 + index}" r:id="rId${index + 2}"/>`)
      .join("")}</p:sldIdLst></p:presentation>`,
    "ppt/_rels/presentation.xml.rels": relationshipsXml([
      { id: "rId1", type: "slideMaster", target: "slideMasters/slideMaster1.xml" },
      ...slides.map((_, index) => ({
        id: `rId${index + 2}`,
        type: "slide",
        target: `slides/slide${index + 1}.xml`,
      })),
    ]),
  };
  slides.forEach((slide, index) => {
    const number = index + 1;
    const table = slide.table
      ? `<p:graphicFrame><a:graphic><a:graphicData><a:tbl>${slide.table
          .map(
            (row) =>
              `<a:tr>${row.map((cell) => `<a:tc>${textBody([cell]).replaceAll("p:txBody", "a:txBody")}</a:tc>`).join("")}</a:tr>`,
          )
          .join("")}</a:tbl></a:graphicData></a:graphic></p:graphicFrame>`
      : "";
    parts[`ppt/slides/slide${number}.xml`] =
      `${xml}<p:sld ${P} ${A} ${R}><p:cSld><p:spTree>${slide.title ? placeholderShape("title", [slide.title]) : ""}${
        slide.body ? placeholderShape("body", slide.body) : ""
      }${slide.shapes ?? ""}${table}${placeholderShape("sldNum", [String(number)])}</p:spTree></p:cSld></p:sld>`;
    if (slide.notes) {
      parts[`ppt/slides/_rels/slide${number}.xml.rels`] = relationshipsXml([
        { id: "rId1", type: "notesSlide", target: `../notesSlides/notesSlide${number}.xml` },
      ]);
      parts[`ppt/notesSlides/notesSlide${number}.xml`] =
        `${xml}<p:notes ${P} ${A}><p:cSld><p:spTree>${placeholderShape("sldImg", [])}${placeholderShape("body", slide.notes)}</p:spTree></p:cSld></p:notes>`;
    }
  });
  if (options.title) parts["docProps/core.xml"] = coreXml(options.title);
  return zipOf(parts);
}

/** Excel: sheets by name, each a list of rows given as raw `<c>` elements; strings go through sharedStrings. */
export function xlsx(
  sheets: Array<{ name: string; rows: Array<{ r: number; cells: string }> }>,
  options: { sharedStrings?: string[]; styles?: string; date1904?: boolean } = {},
): Uint8Array {
  const parts: Record<string, string> = {
    "[Content_Types].xml": `${xml}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`,
    "xl/workbook.xml": `${xml}<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" ${R}>${
      options.date1904 ? '<workbookPr date1904="1"/>' : ""
    }<sheets>${sheets
      .map((sheet, index) => `<sheet name="${sheet.name}" sheetId="${index + 1}" r:id="rId${index + 1}"/>`)
      .join("")}</sheets></workbook>`,
    "xl/_rels/workbook.xml.rels": relationshipsXml(
      sheets.map((_, index) => ({
        id: `rId${index + 1}`,
        type: "worksheet",
        target: `worksheets/sheet${index + 1}.xml`,
      })),
    ),
  };
  sheets.forEach((sheet, index) => {
    parts[`xl/worksheets/sheet${index + 1}.xml`] =
      `${xml}<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${sheet.rows
        .map((row) => `<row r="${row.r}">${row.cells}</row>`)
        .join("")}</sheetData></worksheet>`;
  });
  if (options.sharedStrings) {
    parts["xl/sharedStrings.xml"] =
      `${xml}<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">${options.sharedStrings
        .map((text) => `<si><t>${text}</t></si>`)
        .join("")}</sst>`;
  }
  if (options.styles) parts["xl/styles.xml"] = options.styles;
  return zipOf(parts);
}

/** Calc: `sheets` holds the raw `<table:table>` elements of content.xml. */
export function ods(tables: string, options: { encrypted?: boolean } = {}): Uint8Array {
  const office =
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"';
  return zipOf({
    mimetype: "application/vnd.oasis.opendocument.spreadsheet",
    "content.xml": `${xml}<office:document-content ${office}><office:body><office:spreadsheet>${tables}</office:spreadsheet></office:body></office:document-content>`,
    "META-INF/manifest.xml": `${xml}<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml">${
      options.encrypted ? '<manifest:encryption-data manifest:checksum-type="SHA1"/>' : ""
    }</manifest:file-entry></manifest:manifest>`,
  });
}

/** EPUB 3: chapters as XHTML bodies in spine order, the navigation document naming each. */
export function epub(
  chapters: Array<{ file: string; navTitle: string | null; body: string }>,
  options: { title?: string; encrypted?: string[] } = {},
): Uint8Array {
  const parts: Record<string, string> = {
    mimetype: "application/epub+zip",
    "META-INF/container.xml": `${xml}<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`,
    "OEBPS/content.opf": `${xml}<package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>${
      options.title ?? "Untitled"
    }</dc:title></metadata><manifest><item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>${chapters
      .map(
        (chapter, index) =>
          `<item id="c${index}" href="${chapter.file}" media-type="application/xhtml+xml"/>`,
      )
      .join(
        "",
      )}</manifest><spine>${chapters.map((_, index) => `<itemref idref="c${index}"/>`).join("")}</spine></package>`,
    "OEBPS/nav.xhtml": `${xml}<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><body><nav epub:type="toc"><ol>${chapters
      .filter((chapter) => chapter.navTitle !== null)
      .map((chapter) => `<li><a href="${chapter.file}">${chapter.navTitle}</a></li>`)
      .join("")}</ol></nav></body></html>`,
  };
  for (const chapter of chapters) {
    parts[`OEBPS/${chapter.file}`] =
      `${xml}<html xmlns="http://www.w3.org/1999/xhtml"><head><title>${chapter.navTitle ?? "x"}</title></head><body>${chapter.body}</body></html>`;
  }
  if (options.encrypted) {
    parts["META-INF/encryption.xml"] =
      `${xml}<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#">${options.encrypted
        .map(
          (uri) =>
            `<enc:EncryptedData><enc:EncryptionMethod Algorithm="http://www.w3.org/2001/04/xmlenc#aes128-cbc"/><enc:CipherData><enc:CipherReference URI="${uri}"/></enc:CipherData></enc:EncryptedData>`,
        )
        .join("")}</encryption>`;
  }
  return zipOf(parts);
}
