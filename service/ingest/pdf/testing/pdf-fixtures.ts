/** Test fixtures made at test time: eval PDF paths, poppler word boxes, and small generated PDFs. */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { deflateSync } from "node:zlib";
import type { PdfSpan } from "../../../../sdk/core/wire.ts";

const run = promisify(execFile);

export type EvalPdf = "debian-reference.en.pdf" | "developers-reference.pdf" | "gnuplot.pdf";

export function evalPdfPath(name: EvalPdf): string {
  return path.resolve(import.meta.dirname, "../../../../../shared/eval/pdfs", name);
}

export async function readBytes(file: string): Promise<Uint8Array> {
  return new Uint8Array(await readFile(file));
}

/** A scratch folder removed by the returned cleanup. */
export async function scratchFolder(): Promise<{ folder: string; remove(): Promise<void> }> {
  const folder = await mkdtemp(path.join(os.tmpdir(), "cited-pdf-test-"));
  return { folder, remove: () => rm(folder, { recursive: true, force: true }) };
}

export async function qpdf(args: string[]): Promise<void> {
  await run("qpdf", args);
}

export interface BboxWord {
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");
}

/** Poppler's word boxes for one page (0-based): points, top-left origin of the unrotated page. */
export async function popplerWords(file: string, pageIndex: number): Promise<BboxWord[]> {
  const page = String(pageIndex + 1);
  const { stdout } = await run("pdftotext", ["-bbox", "-f", page, "-l", page, file, "-"], {
    maxBuffer: 32 * 1024 * 1024,
  });
  const words: BboxWord[] = [];
  const pattern = /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g;
  for (const match of stdout.matchAll(pattern)) {
    words.push({
      x0: Number(match[1]),
      y0: Number(match[2]),
      x1: Number(match[3]),
      y1: Number(match[4]),
      text: decodeEntities(match[5] ?? ""),
    });
  }
  return words;
}

/** Serializes numbered objects into a PDF file with a correct cross-reference table. */
export function buildPdf(objects: (string | Uint8Array)[]): Uint8Array {
  const encoder = new TextEncoder();
  const chunks: Uint8Array[] = [encoder.encode("%PDF-1.7\n%\xE2\xE3\xCF\xD3\n")];
  let length = chunks[0]?.length ?? 0;
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(length);
    const body = typeof object === "string" ? encoder.encode(object) : object;
    for (const chunk of [encoder.encode(`${index + 1} 0 obj\n`), body, encoder.encode("\nendobj\n")]) {
      chunks.push(chunk);
      length += chunk.length;
    }
  });
  const xref = [`xref\n0 ${objects.length + 1}\n`, "0000000000 65535 f \n"];
  for (const offset of offsets) xref.push(`${String(offset).padStart(10, "0")} 00000 n \n`);
  xref.push(`trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`);
  chunks.push(encoder.encode(xref.join("")));
  return Buffer.concat(chunks);
}

function streamObject(dictionary: string, data: Uint8Array): Uint8Array {
  const encoder = new TextEncoder();
  return Buffer.concat([
    encoder.encode(`<< ${dictionary} /Length ${data.length} >>\nstream\n`),
    data,
    encoder.encode("\nendstream"),
  ]);
}

/** Where a scan sits on a larger page, in displayed points (top-left origin), and the page's `/Rotate`. */
export interface ScanPlacement {
  page: { width: number; height: number };
  at: { x: number; y: number };
  scale: number;
  /** 90: the page is stored sideways and turned upright for display, as scanners often write it. */
  rotate: 0 | 90;
  /** A line of real text beside the scan, in Helvetica 10 at baseline (x, y) (upright pages only). */
  caption?: { text: string; x: number; y: number };
}

/** The content stream and page dictionary entries that show an image of `width` × `height` points. */
function scanPage(
  width: number,
  height: number,
  placement: ScanPlacement | undefined,
): [entries: string, content: string] {
  if (placement === undefined)
    return [`/MediaBox [0 0 ${width} ${height}]`, `q ${width} 0 0 ${height} 0 0 cm /Scan Do Q`];
  const { page, at, scale } = placement;
  const [shownWidth, shownHeight] = [width * scale, height * scale];
  if (placement.rotate === 0) {
    const bottom = page.height - at.y - shownHeight;
    const { caption } = placement;
    const text =
      caption === undefined
        ? ""
        : ` BT /F1 10 Tf 1 0 0 1 ${caption.x} ${page.height - caption.y} Tm (${escapePdfString(caption.text)}) Tj ET`;
    return [
      `/MediaBox [0 0 ${page.width} ${page.height}]`,
      `q ${shownWidth} 0 0 ${shownHeight} ${at.x} ${bottom} cm /Scan Do Q${text}`,
    ];
  }
  // Turned 90° clockwise for display, displayed (X, Y) is user space (y, x).
  return [
    `/MediaBox [0 0 ${page.height} ${page.width}] /Rotate 90`,
    `q 0 ${shownWidth} ${-shownHeight} 0 ${shownHeight + at.y} ${at.x} cm /Scan Do Q`,
  ];
}

/** A one-page PDF holding only a picture of `sourcePage` (no text layer), like a scan. */
export async function makeScannedPdf(
  source: string,
  pageIndex: number,
  dpi = 200,
  placement?: ScanPlacement,
): Promise<Uint8Array> {
  const scratch = await scratchFolder();
  try {
    const page = String(pageIndex + 1);
    const base = path.join(scratch.folder, "scan");
    await run("pdftoppm", [
      "-r",
      String(dpi),
      "-gray",
      "-cropbox",
      "-f",
      page,
      "-l",
      page,
      "-singlefile",
      source,
      base,
    ]);
    const image = await readFile(`${base}.pgm`);
    const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(image.subarray(0, 64).toString("latin1"));
    if (header === null) throw new Error("pdftoppm did not write a binary PGM");
    const [width, height] = [Number(header[1]), Number(header[2])];
    const pixels = image.subarray(header[0].length);
    const [pageEntries, content] = scanPage((width * 72) / dpi, (height * 72) / dpi, placement);
    return buildPdf([
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      `<< /Type /Page /Parent 2 0 R ${pageEntries} /Resources << /XObject << /Scan 4 0 R >> /Font << /F1 6 0 R >> >> /Contents 5 0 R >>`,
      streamObject(
        `/Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode`,
        deflateSync(pixels),
      ),
      streamObject("", new TextEncoder().encode(content)),
      "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    ]);
  } finally {
    await scratch.remove();
  }
}

function escapePdfString(text: string): string {
  return text.replace(/[\\()]/g, (character) => `\\${character}`);
}

export interface PlacedText {
  x: number;
  /** Baseline, from the bottom of the page (PDF user space). */
  y: number;
  size: number;
  text: string;
}

/** A Letter-size PDF with Helvetica text placed exactly as given, one array per page, in stream order. */
export function makeTextPdf(pages: readonly (readonly PlacedText[])[]): Uint8Array {
  const pageObjects = pages.map((_, index) => 4 + index * 2);
  const objects: (string | Uint8Array)[] = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Kids [${pageObjects.map((object) => `${object} 0 R`).join(" ")}] /Count ${pages.length} >>`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
  ];
  pages.forEach((texts, index) => {
    const operations = ["BT"];
    for (const { x, y, size, text } of texts) {
      operations.push(`/F1 ${size} Tf 1 0 0 1 ${x} ${y} Tm (${escapePdfString(text)}) Tj`);
    }
    operations.push("ET");
    const contents = 5 + index * 2;
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${contents} 0 R >>`,
      streamObject("", new TextEncoder().encode(operations.join("\n"))),
    );
  });
  return buildPdf(objects);
}

/**
 * A Letter-size PDF: one page of Helvetica text, then one page per entry of `shapes`, each filling that
 * many small squares in a single path (as text converted to outlines is drawn), without any text.
 */
export function makeTextAndShapesPdf(text: string, shapes: readonly number[]): Uint8Array {
  const pageCount = 1 + shapes.length;
  const pageObjects = Array.from({ length: pageCount }, (_, index) => 4 + index * 2);
  const objects: (string | Uint8Array)[] = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Kids [${pageObjects.map((object) => `${object} 0 R`).join(" ")}] /Count ${pageCount} >>`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
  ];
  const contents = [
    `BT /F1 12 Tf 1 0 0 1 72 700 Tm (${escapePdfString(text)}) Tj ET`,
    ...shapes.map((count) => {
      const squares = Array.from(
        { length: count },
        (_, index) => `${72 + (index % 40) * 12} ${700 - Math.floor(index / 40) * 14} 8 10 re`,
      );
      return `${squares.join("\n")}\nf`;
    }),
  ];
  contents.forEach((operations, index) => {
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + index * 2} 0 R >>`,
      streamObject("", new TextEncoder().encode(operations)),
    );
  });
  return buildPdf(objects);
}

/**
 * A two-column page whose content stream alternates between the columns line by line (as some
 * producers write it), so stream order is not reading order. Helvetica 10 pt, 12 pt leading.
 */
export function makeTwoColumnPdf(
  left: readonly string[],
  right: readonly string[],
  title: string,
): Uint8Array {
  const texts: PlacedText[] = [{ x: 72, y: 740, size: 16, text: title }];
  for (let row = 0; row < Math.max(left.length, right.length); row++) {
    const y = 700 - row * 12;
    const leftLine = left[row];
    const rightLine = right[row];
    if (leftLine !== undefined) texts.push({ x: 72, y, size: 10, text: leftLine });
    if (rightLine !== undefined) texts.push({ x: 320, y, size: 10, text: rightLine });
  }
  return makeTextPdf([texts]);
}

// Matching a sentence to poppler's words, the independent reference for rectangle checks.

export const normalize = (text: string): string =>
  text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, "");

export interface WordMatch {
  tokens: number;
  matched: BboxWord[];
}

// Reading distance: moving to another line costs far more than moving along one (table rows).
const distance = (first: BboxWord, second: BboxWord): number =>
  (Math.abs(first.x0 + first.x1 - second.x0 - second.x1) +
    4 * Math.abs(first.y0 + first.y1 - second.y0 - second.y1)) /
  2;

/** How far (reading distance) the next word of a sentence may be: a table row, a couple of lines. */
const MAX_JUMP = 500;

/**
 * Follows the sentence through poppler's words: the next few words in poppler's order first, and
 * where poppler orders a table cell differently, the nearest word with that text.
 */
function walk(
  tokens: readonly string[],
  keys: readonly string[],
  words: readonly BboxWord[],
  from: number,
): BboxWord[] {
  const matched: BboxWord[] = [];
  let position = from;
  for (const token of tokens) {
    let found = -1;
    let pair = false;
    for (let at = position; at < Math.min(position + 4, keys.length) && found < 0; at++) {
      if (keys[at] === token) found = at;
      // Poppler keeps a line-end hyphen inside its word: "expres-" + "sions".
      else if (`${keys[at]}${keys[at + 1] ?? ""}` === token && words[at]?.text.endsWith("-")) {
        found = at;
        pair = true;
      }
    }
    const previous = matched.at(-1);
    if (found < 0 && previous !== undefined) {
      let nearest = Number.POSITIVE_INFINITY;
      keys.forEach((key, at) => {
        const gap = distance(previous, words[at] as BboxWord);
        if (key === token && gap < MAX_JUMP && !matched.includes(words[at] as BboxWord) && gap < nearest) {
          nearest = gap;
          found = at;
        }
      });
    }
    if (found < 0) continue;
    matched.push(words[found] as BboxWord);
    if (pair) matched.push(words[found + 1] as BboxWord);
    position = found + (pair ? 2 : 1);
  }
  return matched;
}

/** Finds the sentence's words, in order, among poppler's words of the page (best of every start). */
export function matchWords(sentence: string, words: readonly BboxWord[]): WordMatch {
  const tokens = sentence.split(/\s+/).map(normalize).filter(Boolean);
  const keys = words.map((word) => normalize(word.text));
  let best: BboxWord[] = [];
  let bestSpread = Number.POSITIVE_INFINITY;
  const spread = (matched: readonly BboxWord[]): number =>
    matched.reduce(
      (sum, word, index) => sum + (index > 0 ? distance(matched[index - 1] as BboxWord, word) : 0),
      0,
    );
  const openers = new Set(tokens.slice(0, 3));
  keys.forEach((key, index) => {
    if (!openers.has(key)) return;
    const matched = walk(tokens, keys, words, index);
    // The most words found, and among equals the most compact run: the sentence's own place.
    if (matched.length > best.length || (matched.length === best.length && spread(matched) < bestSpread)) {
      best = matched;
      bestSpread = spread(matched);
    }
  });
  return { tokens: tokens.length, matched: best };
}

export const center = (word: BboxWord): [number, number] => [
  (word.x0 + word.x1) / 2,
  (word.y0 + word.y1) / 2,
];

export function inRects(point: [number, number], spans: readonly PdfSpan[], tolerance: number): boolean {
  return spans.some((span) =>
    span.rects.some(
      ([x0, y0, x1, y1]) =>
        point[0] >= x0 - tolerance &&
        point[0] <= x1 + tolerance &&
        point[1] >= y0 - tolerance &&
        point[1] <= y1 + tolerance,
    ),
  );
}

/**
 * Matched words whose centers fall outside the sentence's rects. Where the page repeats a word
 * (table rows, "the"), the in-order match may pick a twin; a twin inside the rects counts as found,
 * as does a word that poppler glued to its neighbour ("pro-" + "cess", ".orig-component.tar.gz").
 */
export function misplaced(
  matched: readonly BboxWord[],
  words: readonly BboxWord[],
  spans: readonly PdfSpan[],
  tolerance = 2,
): string[] {
  const within = words
    .filter((word) => inRects(center(word), spans, tolerance))
    .map((word) => normalize(word.text));
  const joined = within.join(" ");
  const hyphenated = words
    .filter((word) => word.text.endsWith("-") && inRects(center(word), spans, tolerance))
    .flatMap((first) => within.map((second) => normalize(first.text) + second));
  const foundInside = (text: string): boolean =>
    text !== "" && (joined.includes(text) || hyphenated.includes(text));
  return matched
    .filter((word) => !inRects(center(word), spans, tolerance) && !foundInside(normalize(word.text)))
    .map((word) => word.text);
}
