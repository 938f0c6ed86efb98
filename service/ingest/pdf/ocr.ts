/** OCR for pages without a text layer: poppler renders a grayscale PGM, tesseract reads it (TSV words). */
import { execFile } from "node:child_process";
import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { type Rect, unionRect } from "./geometry.ts";
import { createScratchFolder } from "./ocr-scratch.ts";
import type { TextFragment, TextLine } from "./text-lines.ts";

const run = promisify(execFile);

const DPI = 300;
const POINTS_PER_PIXEL = 72 / DPI;
const MIN_CONFIDENCE = 30;
// Tesseract's OpenMP threads make it ~5× slower on a busy machine; one thread per process, one process per core.
const TESSERACT_ENV = { ...process.env, OMP_THREAD_LIMIT: "1" };

let availability: Promise<boolean> | null = null;

async function probe(): Promise<boolean> {
  try {
    await run("pdftoppm", ["-v"], { timeout: 10_000 });
    const { stdout } = await run("tesseract", ["--list-langs"], { timeout: 10_000, env: TESSERACT_ENV });
    return stdout.split(/\s+/).includes("eng");
  } catch {
    // A missing binary is an expected state (OCR is optional), not an error to report.
    return false;
  }
}

/** Whether `pdftoppm` and `tesseract` (with English data) are installed; checked once per process. */
export function isOcrAvailable(): Promise<boolean> {
  availability ??= probe();
  return availability;
}

export interface OcrWord {
  /** 1-based: a multi-page TIFF has several. */
  page: number;
  /** `block/paragraph/line`, unique within a page. */
  line: string;
  left: number;
  top: number;
  width: number;
  height: number;
  text: string;
}

/** Words of tesseract's TSV output (level 5 rows) with enough confidence, keyed by page and block/paragraph/line. */
export function parseTesseractTsv(tsv: string): OcrWord[] {
  const words: OcrWord[] = [];
  for (const row of tsv.split("\n")) {
    const cells = row.split("\t");
    if (cells[0] !== "5" || cells.length < 12) continue;
    const text = (cells[11] ?? "").trim();
    if (text === "" || Number(cells[10]) < MIN_CONFIDENCE) continue;
    words.push({
      page: Number(cells[1]),
      line: `${cells[2]}/${cells[3]}/${cells[4]}`,
      left: Number(cells[6]),
      top: Number(cells[7]),
      width: Number(cells[8]),
      height: Number(cells[9]),
      text,
    });
  }
  return words;
}

function wordFragment(word: OcrWord, fontSize: number): TextFragment {
  const bottom = (word.top + word.height) * POINTS_PER_PIXEL;
  return {
    text: word.text,
    originX: word.left * POINTS_PER_PIXEL,
    originY: bottom,
    alongX: 1,
    alongY: 0,
    upX: 0,
    upY: -1,
    advance: word.width * POINTS_PER_PIXEL,
    ascent: word.height * POINTS_PER_PIXEL,
    descent: 0,
    fontSize,
    monospace: false,
    fontName: "ocr",
  };
}

/** Groups OCR words into text lines in tesseract's reading order; coordinates become points. */
function ocrWordsToLines(words: readonly OcrWord[], pageIndex: number): TextLine[] {
  const grouped = new Map<string, OcrWord[]>();
  for (const word of words) {
    const line = grouped.get(word.line);
    if (line === undefined) grouped.set(word.line, [word]);
    else line.push(word);
  }
  const lines: TextLine[] = [];
  for (const lineWords of grouped.values()) {
    const top = Math.min(...lineWords.map((word) => word.top));
    const bottom = Math.max(...lineWords.map((word) => word.top + word.height));
    // A line box spans ascenders to descenders, about 1.2 font sizes.
    const fontSize = ((bottom - top) * POINTS_PER_PIXEL) / 1.2;
    let text = "";
    let box: Rect | null = null;
    const fragments: TextFragment[] = [];
    const fragmentStarts: number[] = [];
    for (const word of lineWords) {
      if (text !== "") text += " ";
      const fragment = wordFragment(word, fontSize);
      fragmentStarts.push(text.length);
      fragments.push(fragment);
      text += word.text;
      box = unionRect(box, [
        fragment.originX,
        fragment.originY - fragment.ascent,
        fragment.originX + fragment.advance,
        fragment.originY,
      ]);
    }
    if (box === null) continue;
    lines.push({
      pageIndex,
      text,
      fragments,
      fragmentStarts,
      box,
      baseline: bottom * POINTS_PER_PIXEL,
      fontSize,
      monospace: false,
      fontName: "ocr",
    });
  }
  return lines;
}

/** The pixel size of each page tesseract read (its level 1 rows), in page order. */
export function tesseractPageSizes(tsv: string): Array<{ width: number; height: number }> {
  return tsv
    .split("\n")
    .map((row) => row.split("\t"))
    .filter((cells) => cells[0] === "1" && cells.length >= 10)
    .map((cells) => ({ width: Number(cells[8]), height: Number(cells[9]) }));
}

/** Tesseract's TSV for an image file (PNG, JPEG, TIFF, WebP or PGM); rejects when it cannot read the image. */
export async function tesseractTsv(imagePath: string): Promise<string> {
  const { stdout } = await run("tesseract", [imagePath, "stdout", "tsv"], {
    env: TESSERACT_ENV,
    timeout: 300_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout;
}

/** A binary PGM with hardly any dark pixels is a blank page: no need to run tesseract on it. */
export function isBlankPgm(image: Uint8Array): boolean {
  const header = new TextDecoder("latin1").decode(image.subarray(0, 64));
  const match = /^P5\s+(?:#[^\n]*\s+)*(\d+)\s+(\d+)\s+(\d+)\s/.exec(header);
  if (match === null) return false;
  let dark = 0;
  for (let index = match[0].length; index < image.length; index++) {
    if ((image[index] ?? 255) < 128 && ++dark > 50) return false;
  }
  return true;
}

/** pdftoppm's crop `[x, y, width, height]`, in pixels of the page's render, around `area` (displayed points). */
function cropPixels(area: Rect): [number, number, number, number] {
  const [left, top] = [Math.floor(area[0] / POINTS_PER_PIXEL), Math.floor(area[1] / POINTS_PER_PIXEL)];
  const [right, bottom] = [Math.ceil(area[2] / POINTS_PER_PIXEL), Math.ceil(area[3] / POINTS_PER_PIXEL)];
  return [left, top, right - left, bottom - top];
}

export interface OcrSession {
  /**
   * Text lines of one page (0-based), in displayed page space; empty for a blank page. With `area` (displayed
   * points), only that box of the page is rendered and read.
   */
  readPage(pageIndex: number, area?: Rect): Promise<TextLine[]>;
  close(): Promise<void>;
}

/**
 * OCR over one document; on first use the PDF (from `pdfBytes`, called once) is written to a private temp
 * folder, removed on close.
 */
export function createOcrSession(pdfBytes: () => Promise<Uint8Array>): OcrSession {
  let folder: string | null = null;
  let prepared: Promise<string> | null = null;
  const prepare = (): Promise<string> => {
    prepared ??= (async () => {
      folder = await createScratchFolder();
      await writeFile(path.join(folder, "document.pdf"), await pdfBytes());
      return folder;
    })();
    return prepared;
  };
  return {
    async readPage(pageIndex, area) {
      const directory = await prepare();
      const imageBase = path.join(directory, `page-${pageIndex}`);
      const page = String(pageIndex + 1);
      const pdfPath = path.join(directory, "document.pdf");
      const renderArgs = ["-r", String(DPI), "-gray", "-cropbox", "-f", page, "-l", page, "-singlefile"];
      const crop = area === undefined ? null : cropPixels(area);
      const cropArgs =
        crop === null ? [] : ["-x", "-y", "-W", "-H"].flatMap((flag, index) => [flag, String(crop[index])]);
      await run("pdftoppm", [...renderArgs, ...cropArgs, pdfPath, imageBase], { timeout: 120_000 });
      const imagePath = `${imageBase}.pgm`;
      try {
        if (isBlankPgm(await readFile(imagePath))) return [];
        const words = parseTesseractTsv(await tesseractTsv(imagePath));
        const [left, top] = crop ?? [0, 0];
        return ocrWordsToLines(
          words.map((word) => ({ ...word, left: word.left + left, top: word.top + top })),
          pageIndex,
        );
      } finally {
        await rm(imagePath, { force: true });
      }
    },
    async close() {
      // The folder may exist even when writing the PDF into it failed.
      if (folder !== null) await rm(folder, { recursive: true, force: true });
    },
  };
}
