/**
 * Zipped documents a careless or hostile customer uploads: truncated, under the wrong extension,
 * password-protected and ZIP bombs of three shapes, each with the reason the service gives (each file's bytes
 * differ: the service keeps one document per content).
 */
import AdmZip from "adm-zip";
import { docx, epub, ods, pptx, wordParagraph, xlsx } from "./build-documents.ts";

export interface HostilePackage {
  name: string;
  kind: string;
  bytes: Uint8Array;
  /** What the document's error says (a part of it). */
  reason: string;
}

const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/** Rewrites every ZIP header of `entry` (local and central): its declared size and/or its flags. */
function patchEntry(
  bytes: Uint8Array,
  entry: string,
  patch: { size?: number; encrypted?: boolean },
): Uint8Array {
  const buffer = Buffer.from(bytes);
  const name = Buffer.from(entry);
  for (let at = 0; at + 46 < buffer.length; at++) {
    const signature = buffer.readUInt32LE(at);
    if (signature !== CENTRAL && signature !== LOCAL) continue;
    const nameAt = signature === CENTRAL ? 46 : 30;
    const nameLength = buffer.readUInt16LE(at + (signature === CENTRAL ? 28 : 26));
    if (!buffer.subarray(at + nameAt, at + nameAt + nameLength).equals(name)) continue;
    const flagsAt = at + (signature === CENTRAL ? 8 : 6);
    if (patch.encrypted) buffer.writeUInt16LE(buffer.readUInt16LE(flagsAt) | 1, flagsAt);
    if (patch.size !== undefined) buffer.writeUInt32LE(patch.size, at + (signature === CENTRAL ? 24 : 22));
  }
  return new Uint8Array(buffer);
}

/** An OLE compound file as Office writes a password-protected document: its magic, then an EncryptionInfo stream name. */
function officeEncrypted(kind: string): Uint8Array {
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
      Buffer.alloc(1016),
      Buffer.from("EncryptionInfo", "utf16le"),
      // The service keeps one document per content: each kind's file differs.
      Buffer.from(kind),
      Buffer.alloc(2048, 0x5a),
    ]),
  );
}

/** A Word document whose main part inflates to 64 MiB while its headers declare 1 KB. */
function lyingBomb(): Uint8Array {
  const zip = new AdmZip(Buffer.from(docx(wordParagraph("Small."))));
  const body = Buffer.alloc(64 * 1024 * 1024, 0x20);
  zip.updateFile("word/document.xml", body);
  return patchEntry(new Uint8Array(zip.toBuffer()), "word/document.xml", { size: 1024 });
}

/** `count` empty parts, written directly (a ZIP library takes seconds for this many): far more than any document has. */
function crowded(count: number): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (let index = 0; index < count; index++) {
    const name = Buffer.from(`ppt/media/${index}.bin`);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(LOCAL, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(CENTRAL, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name);
    centrals.push(central, name);
    offset += local.length + name.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(count, 8);
  end.writeUInt16LE(count, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, directory, end]));
}

export function hostilePackages(): HostilePackage[] {
  const word = docx(wordParagraph("The vault opens on Mondays."));
  const slides = pptx([{ title: "Vault", body: ["The vault opens on Mondays."] }]);
  const book = xlsx([
    { name: "Vault", rows: [{ r: 1, cells: '<c r="A1" t="inlineStr"><is><t>Mondays</t></is></c>' }] },
  ]);
  const calc = ods(
    '<table:table table:name="Vault"><table:table-row><table:table-cell office:value-type="string"><text:p>Mondays</text:p></table:table-cell></table:table-row></table:table>',
  );
  const ebook = epub([{ file: "one.xhtml", navTitle: "One", body: "<p>The vault opens on Mondays.</p>" }]);
  const damaged = "damaged or incomplete";
  const locked = "password-protected";
  return [
    {
      name: "truncated.docx",
      kind: "truncated DOCX",
      bytes: word.slice(0, word.length >> 1),
      reason: damaged,
    },
    {
      name: "truncated.pptx",
      kind: "truncated PPTX",
      bytes: slides.slice(0, slides.length - 30),
      reason: damaged,
    },
    { name: "truncated.xlsx", kind: "truncated XLSX", bytes: book.slice(0, 200), reason: damaged },
    { name: "truncated.ods", kind: "truncated ODS", bytes: calc.slice(0, calc.length >> 1), reason: damaged },
    {
      name: "truncated.epub",
      kind: "truncated EPUB",
      bytes: ebook.slice(0, ebook.length >> 1),
      reason: damaged,
    },
    {
      name: "workbook.docx",
      kind: "XLSX named .docx",
      bytes: book,
      reason: "it looks like an Excel workbook (.xlsx)",
    },
    {
      name: "document.xlsx",
      kind: "DOCX named .xlsx",
      bytes: word,
      reason: "it looks like a Word document (.docx)",
    },
    {
      name: "calc.pptx",
      kind: "ODS named .pptx",
      bytes: calc,
      reason: "it looks like an OpenDocument spreadsheet (.ods)",
    },
    { name: "slides.epub", kind: "PPTX named .epub", bytes: slides, reason: "This is not an EPUB book" },
    {
      name: "text.ods",
      kind: "text named .ods",
      bytes: new TextEncoder().encode("just words"),
      reason: "not a ZIP package",
    },
    { name: "locked.docx", kind: "password-protected DOCX", bytes: officeEncrypted("docx"), reason: locked },
    { name: "locked.pptx", kind: "password-protected PPTX", bytes: officeEncrypted("pptx"), reason: locked },
    { name: "locked.xlsx", kind: "password-protected XLSX", bytes: officeEncrypted("xlsx"), reason: locked },
    {
      name: "locked.ods",
      kind: "password-protected ODS",
      bytes: ods("", { encrypted: true }),
      reason: locked,
    },
    {
      name: "zip-locked.xlsx",
      kind: "XLSX in an encrypted ZIP",
      bytes: patchEntry(book, "xl/workbook.xml", { encrypted: true }),
      reason: locked,
    },
    {
      name: "drm.epub",
      kind: "DRM-locked EPUB",
      bytes: epub([{ file: "one.xhtml", navTitle: "One", body: "<p>Secret.</p>" }], {
        encrypted: ["OEBPS/one.xhtml"],
      }),
      reason: "locked with DRM",
    },
    {
      name: "bomb-declared.docx",
      kind: "ZIP bomb declaring 4 GB",
      bytes: patchEntry(word, "word/document.xml", { size: 0xffff_ff00 }),
      reason: "refused as too large or a ZIP bomb",
    },
    {
      name: "bomb-lying.docx",
      kind: "ZIP bomb hiding 64 MB",
      bytes: lyingBomb(),
      reason: "refused as a ZIP bomb",
    },
    {
      name: "bomb-crowded.pptx",
      kind: "ZIP of 25,000 parts",
      bytes: crowded(25_000),
      reason: "refused as a possible ZIP bomb",
    },
  ];
}
