/**
 * Files a careless or hostile customer uploads: PDFs that are malformed, truncated, bit-flipped,
 * encrypted, bomb-like or carry scripts; Word, PowerPoint, Excel, Calc and EPUB files that are truncated,
 * mislabelled, password-protected, ZIP bombs or empty; images that are truncated, mislabelled or pixel bombs;
 * and names no file system would choose.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
import { PDFDocument, PDFName, PDFRawStream, PDFString, StandardFonts } from "pdf-lib";
import { docx, wordParagraph } from "../ingest/zip-formats/testing/build-documents.ts";
import { hostilePackages } from "../ingest/zip-formats/testing/hostile-packages.ts";
import { pixelBombPng } from "../testing/hostile-images.ts";
import { temporaryDirectory } from "../testing/temporary-directory.ts";
import { renderTextImage } from "../testing/text-image.ts";

export interface HostileFile {
  name: string;
  kind: string;
  bytes: Uint8Array;
  /** Whether a reader should turn it into passages (it is a valid PDF with text; images need OCR, off here). */
  readable: boolean;
  /** Part of the error an unreadable file's document must show, where it is known. */
  reason?: string;
}

/** A small valid PDF with a line of text on each of `pages` pages. */
async function textPdf(pages: number, decorate?: (document: PDFDocument) => void): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  const sentences = [
    "The backup tapes rotate every Monday, and the oldest tape goes to the vault.",
    "A restore needs the tape of the last full backup and every incremental one since.",
    "Tapes older than a year are wiped with the degausser before they are reused.",
    "The vault log records who took a tape out, when, and for which restore.",
  ];
  for (let index = 0; index < pages; index++) {
    const page = document.addPage([400, 300]);
    // Different lines at different heights on each page: repeated ones would be dropped as running headers.
    sentences.slice(index % 2).forEach((sentence, line) => {
      page.drawText(`${index + 1}.${line + 1} ${sentence}`, {
        x: 20,
        y: 240 - line * 20 - index * 7,
        size: 8,
        font,
      });
    });
  }
  decorate?.(document);
  return document.save();
}

/** A page whose content stream inflates from a few kilobytes to `inflatedBytes`. */
async function flateBomb(inflatedBytes: number): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  const page = document.addPage([400, 300]);
  const content = Buffer.alloc(inflatedBytes, 0x20);
  content.write("BT /F1 12 Tf 20 250 Td (bomb) Tj ET\n");
  const stream = PDFRawStream.of(
    document.context.obj({ Filter: "FlateDecode", Length: 0 }),
    deflateSync(content, { level: 9 }),
  );
  stream.dict.set(PDFName.of("Length"), document.context.obj(stream.contents.length));
  page.node.set(PDFName.of("Contents"), document.context.register(stream));
  return document.save();
}

/** JavaScript run on open, and a link annotation that runs JavaScript when clicked. */
function withScripts(document: PDFDocument): void {
  const { context } = document;
  const script = (code: string) =>
    context.register(context.obj({ Type: "Action", S: "JavaScript", JS: PDFString.of(code) }));
  document.catalog.set(PDFName.of("OpenAction"), script("app.alert('opened')"));
  const page = document.getPage(0);
  const link = context.register(
    context.obj({
      Type: "Annot",
      Subtype: "Link",
      Rect: [20, 240, 300, 260],
      Border: [0, 0, 0],
      A: script("app.launchURL('https://evil.test')"),
    }),
  );
  page.node.set(PDFName.of("Annots"), context.obj([link]));
}

function encrypted(source: Uint8Array, userPassword: string): Uint8Array {
  const folder = temporaryDirectory("cka-hostile-");
  const input = join(folder, "in.pdf");
  const output = join(folder, "out.pdf");
  writeFileSync(input, source);
  execFileSync("qpdf", ["--encrypt", userPassword, "owner-secret", "256", "--", input, output]);
  return readFileSync(output);
}

function flipBytes(source: Uint8Array, flips: number, seed: number): Uint8Array {
  const copy = new Uint8Array(source);
  let state = seed;
  for (let index = 0; index < flips; index++) {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    const at = 16 + (state % (copy.length - 16));
    copy[at] = (copy[at] ?? 0) ^ 0xff;
  }
  return copy;
}

/**
 * Images no reader can use: each must fail alone, with a reason, and never reach tesseract as a path list.
 * (An empty one would be empty.pdf again: uploads of the same bytes are one document.)
 */
async function hostileImages(): Promise<HostileFile[]> {
  const { bytes: png } = await renderTextImage(["The backup tapes rotate every Monday."]);
  const unreadable = (name: string, kind: string, bytes: Uint8Array): HostileFile => ({
    name,
    kind,
    bytes,
    readable: false,
  });
  return [
    unreadable("truncated.png", "truncated PNG", png.slice(0, png.length >> 1)),
    unreadable(
      "header-only.png",
      "PNG signature then noise",
      Buffer.concat([png.subarray(0, 8), Buffer.alloc(512, 0x5a)]),
    ),
    unreadable(
      "paths.png",
      "list of paths named .png",
      new TextEncoder().encode("/etc/passwd\n/etc/hostname\n"),
    ),
    unreadable("bomb.png", "PNG pixel bomb (400 million pixels)", pixelBombPng(20_000)),
  ];
}

export async function hostileFiles(): Promise<HostileFile[]> {
  const valid = await textPdf(3);
  return [
    ...(await hostileImages()),
    { name: "valid.pdf", kind: "valid PDF", bytes: valid, readable: true },
    {
      name: "scripts.pdf",
      kind: "script-carrying PDF",
      bytes: await textPdf(2, withScripts),
      readable: true,
    },
    {
      name: "encrypted-open.pdf",
      kind: "encrypted PDF, empty user password",
      bytes: encrypted(valid, ""),
      readable: true,
    },
    {
      name: "encrypted-locked.pdf",
      kind: "encrypted PDF, user password",
      bytes: encrypted(valid, "s3cret"),
      readable: false,
    },
    {
      name: "bomb.pdf",
      kind: "flate bomb (64 MB inflated)",
      bytes: await flateBomb(64 * 1024 * 1024),
      readable: false,
    },
    {
      name: "truncated-half.pdf",
      kind: "truncated PDF",
      bytes: valid.slice(0, valid.length >> 1),
      readable: false,
    },
    { name: "truncated-header.pdf", kind: "truncated PDF", bytes: valid.slice(0, 9), readable: false },
    { name: "flipped.pdf", kind: "bit-flipped PDF", bytes: flipBytes(valid, 40, 7), readable: false },
    { name: "empty.pdf", kind: "empty file", bytes: new Uint8Array(), readable: false },
    {
      name: "not-a.pdf",
      kind: "text named .pdf",
      bytes: new TextEncoder().encode("hello, I am not a PDF"),
      readable: false,
    },
    {
      name: "random.pdf",
      kind: "PDF header then noise",
      bytes: Buffer.concat([
        Buffer.from("%PDF-1.7\n"),
        Buffer.from(Array.from({ length: 4096 }, (_, at) => (at * 7919) % 256)),
      ]),
      readable: false,
    },
    {
      name: "valid.docx",
      kind: "valid DOCX",
      bytes: docx(wordParagraph("The tape library is inventoried every quarter.")),
      readable: true,
    },
    ...hostilePackages().map((file) => ({ ...file, readable: false })),
  ];
}

/** File names no user would pick, as a browser or `cka` would send them. */
export const oddFileNames: readonly string[] = [
  "Überblick.md",
  "日本語のファイル.md",
  "../../../etc/passwd.md",
  "..\\..\\boot.ini.md",
  "a\u0000b.md",
  "line\nbreak.md",
  'quote".md',
  "semi;colon=1.md",
  "\u202Egnp.md",
  "    .md",
  ".md",
  `${"long".repeat(300)}.md`,
  "emoji 👩‍👩‍👧.md",
  "nul\u0000.pdf.md",
];
