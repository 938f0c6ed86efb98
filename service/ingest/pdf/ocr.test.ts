import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PdfExtraction } from "../types.ts";
import { extractPdf } from "./extract-pdf.ts";
import { isBlankPgm, isOcrAvailable, parseTesseractTsv } from "./ocr.ts";
import {
  type BboxWord,
  evalPdfPath,
  makeScannedPdf,
  matchWords,
  misplaced,
  normalize,
  popplerWords,
  qpdf,
  readBytes,
  scratchFolder,
} from "./testing/pdf-fixtures.ts";

/** OCR's sentences are found among the reference words, and their rectangles lie on them. */
function expectSentencesOnWords(extraction: PdfExtraction, words: readonly BboxWord[]): void {
  const sentences = extraction.blocks
    .flatMap((block) => block.sentences)
    .filter((sentence) => sentence.text.split(" ").length >= 6);
  expect(sentences.length).toBeGreaterThan(10);
  for (const sentence of sentences) {
    const { tokens, matched } = matchWords(sentence.text, words);
    expect(matched.length / tokens, sentence.text).toBeGreaterThan(0.6);
    expect(misplaced(matched, words, sentence.spans ?? [], 3), sentence.text).toEqual([]);
  }
}

const ocrInstalled = await isOcrAvailable();
const title = ocrInstalled
  ? "extractPdf with OCR on a scanned page"
  : "extractPdf with OCR on a scanned page (skipped: tesseract with English data or pdftoppm is not installed)";

describe(title, () => {
  let scratch: Awaited<ReturnType<typeof scratchFolder>>;
  let original: string;
  let reference: BboxWord[];
  let result: PdfExtraction;
  beforeAll(async () => {
    if (!ocrInstalled) return;
    scratch = await scratchFolder();
    original = path.join(scratch.folder, "original.pdf");
    await qpdf(["--empty", "--pages", evalPdfPath("developers-reference.pdf"), "30", "--", original]);
    reference = await popplerWords(original, 0);
    result = await extractPdf(await makeScannedPdf(original, 0, 200), { ocr: true });
  });
  afterAll(async () => {
    await scratch?.remove();
  });

  it.skipIf(!ocrInstalled)("makes the scanned page searchable and says it was read with OCR", () => {
    expect(result.pages[0]).toMatchObject({ ocr: true, searchable: true });
    expect(result.pages[0]?.textChars).toBeGreaterThan(1000);
    expect(result.warnings.join(" ")).toMatch(/read with OCR/);
    const recognized = new Set(
      result.blocks.flatMap((block) =>
        block.sentences.flatMap((sentence) => sentence.text.split(" ").map(normalize)),
      ),
    );
    const words = reference.map((word) => normalize(word.text)).filter(Boolean);
    expect(words.filter((word) => recognized.has(word)).length / words.length).toBeGreaterThan(0.9);
  });

  it.skipIf(!ocrInstalled)("puts the rectangles of OCR sentences on the words of the page", () => {
    expectSentencesOnWords(result, reference);
  });

  it.skipIf(!ocrInstalled)(
    "reads a scan that covers part of a page, upright or stored sideways, where the page shows it",
    async () => {
      for (const rotate of [0, 90] as const) {
        const placement = { page: { width: 842, height: 595 }, at: { x: 400, y: 40 }, scale: 0.6, rotate };
        const placed = await makeScannedPdf(original, 0, 250, placement);
        const extraction = await extractPdf(placed, { ocr: true });
        expect(extraction.pages[0], `rotate ${rotate}`).toMatchObject({ ocr: true, width: 842, height: 595 });
        const shown = reference.map((word) => ({
          text: word.text,
          x0: placement.at.x + word.x0 * placement.scale,
          y0: placement.at.y + word.y0 * placement.scale,
          x1: placement.at.x + word.x1 * placement.scale,
          y1: placement.at.y + word.y1 * placement.scale,
        }));
        expectSentencesOnWords(extraction, shown);
      }
    },
  );
  it.skipIf(!ocrInstalled)(
    "keeps the little text a page has beside a scan that covers part of it",
    async () => {
      const caption = { text: "Figure 7.", x: 400, y: 540 };
      const placement = {
        page: { width: 842, height: 595 },
        at: { x: 400, y: 40 },
        scale: 0.6,
        rotate: 0 as const,
      };
      const extraction = await extractPdf(await makeScannedPdf(original, 0, 250, { ...placement, caption }), {
        ocr: true,
      });
      expect(extraction.pages[0]).toMatchObject({ ocr: true });
      // Larger than the scan's shrunken type, the caption reads as the document's heading.
      const text = extraction.blocks
        .flatMap((block) => [...block.headingPath, ...block.sentences.map((sentence) => sentence.text)])
        .join(" ");
      expect(text).toContain("Figure 7");
      expect(extraction.pages[0]?.textChars).toBeGreaterThan(1000);
    },
  );

  it.skipIf(!ocrInstalled)(
    "keeps page order when OCR of a scan finishes after the pages behind it",
    async () => {
      const scanned = path.join(scratch.folder, "scanned.pdf");
      const mixed = path.join(scratch.folder, "mixed.pdf");
      await writeFile(scanned, await makeScannedPdf(original, 0, 150));
      await qpdf(["--empty", "--pages", original, scanned, original, original, "--", mixed]);
      const progress: number[] = [];
      const extraction = await extractPdf(await readBytes(mixed), {
        ocr: true,
        onProgress: (pagesDone, pageCount) => progress.push(pagesDone / pageCount),
      });
      expect(extraction.pages.map((page) => [page.index, page.ocr])).toEqual([
        [0, false],
        [1, true],
        [2, false],
        [3, false],
      ]);
      expect(extraction.pages[1]?.textChars).toBeGreaterThan(1000);
      expect(progress).toEqual([...progress].sort((a, b) => a - b));
      expect(progress.at(-1)).toBe(1);
      expect(extraction.warnings).toEqual([
        "1 page had no text layer and was read with OCR; its text may contain recognition errors (page 2).",
      ]);
    },
  );
});

describe("OCR output parsing", () => {
  it("keeps confident words with their line keys and drops the rest", () => {
    const tsv = [
      "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext",
      "4\t1\t1\t1\t1\t0\t300\t200\t400\t40\t-1\t",
      "5\t1\t1\t1\t1\t1\t300\t200\t100\t40\t96.5\tHello",
      "5\t1\t1\t1\t1\t2\t420\t200\t120\t40\t12.0\t~~",
      "5\t1\t1\t1\t1\t3\t560\t200\t140\t40\t91.0\tworld",
    ].join("\n");
    expect(parseTesseractTsv(tsv)).toEqual([
      { page: 1, line: "1/1/1", left: 300, top: 200, width: 100, height: 40, text: "Hello" },
      { page: 1, line: "1/1/1", left: 560, top: 200, width: 140, height: 40, text: "world" },
    ]);
  });

  it("recognizes a blank render without running tesseract", () => {
    const header = new TextEncoder().encode("P5\n4 4\n255\n");
    const white = new Uint8Array(header.length + 16).fill(255);
    white.set(header);
    expect(isBlankPgm(white)).toBe(true);
    const printed = new Uint8Array(header.length + 400).fill(0);
    printed.set(header);
    expect(isBlankPgm(printed)).toBe(false);
  });
});
