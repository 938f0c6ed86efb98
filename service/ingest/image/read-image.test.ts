/** Uploaded images read with OCR: their sentences boxed on the words in pixels, and bad files refused in plain words. */
import { describe, expect, it } from "vitest";
import { pixelBombPng } from "../../testing/hostile-images.ts";
import { renderDpi, renderTextImage } from "../../testing/text-image.ts";
import { isOcrAvailable, type OcrWord } from "../pdf/ocr.ts";
import { SourceReadError } from "../types.ts";
import { imageBlocks } from "./image-blocks.ts";
import { sniffImage } from "./image-type.ts";
import { readImage } from "./read-image.ts";

const ocrInstalled = await isOcrAvailable();
const skipped = ocrInstalled ? "" : " (skipped: tesseract with English data or pdftoppm is not installed)";
const pixels = (points: number) => (points * renderDpi) / 72;

const lines = [
  "The pump must be primed before it starts. Check the valve",
  "every spring and replace the seal.",
];

describe(`readImage${skipped}`, () => {
  it.skipIf(!ocrInstalled)("reads a PNG's sentences with one rectangle per line, in pixels", async () => {
    const { bytes } = await renderTextImage(lines);
    const extraction = await readImage("pump.png", bytes, { ocr: true });
    const sentences = extraction.blocks.flatMap((block) => block.sentences);
    expect(sentences.map((sentence) => sentence.text)).toEqual([
      "The pump must be primed before it starts.",
      "Check the valve every spring and replace the seal.",
    ]);
    expect(extraction.blocks.every((block) => block.evidence.kind === "image")).toBe(true);
    const [first, second] = sentences.map((sentence) => sentence.spans?.[0]);
    // A Letter page at 150 dpi.
    expect(first).toMatchObject({ page_index: 0, page_width: 1275, page_height: 1650 });
    expect(first?.rects).toHaveLength(1);
    const [left, top, right, bottom] = first?.rects[0] ?? [];
    // 14 pt Helvetica on a baseline 54 pt from the top, 40 pt from the left.
    expect(left).toBeCloseTo(pixels(40), -1);
    expect(top).toBeGreaterThan(pixels(54 - 14));
    expect(bottom).toBeLessThan(pixels(54 + 5));
    expect(second?.rects).toHaveLength(2);
    // Ends at "starts.", before "Check the valve" on the same line.
    expect(right).toBeLessThan(second?.rects[0]?.[0] ?? 0);
    expect(second?.rects[1]?.[1]).toBeGreaterThan(pixels(54 + 24 - 14));
  });

  it.skipIf(!ocrInstalled)("reads JPEG and TIFF files the same way", async () => {
    for (const format of ["jpeg", "tiff"] as const) {
      const { bytes } = await renderTextImage(lines, format);
      const extraction = await readImage(`pump.${format}`, bytes, { ocr: true });
      const text = extraction.blocks.flatMap((block) => block.sentences.map((sentence) => sentence.text));
      expect(text.join(" "), format).toContain("replace the seal.");
    }
  });

  it.skipIf(!ocrInstalled)("refuses truncated, mislabelled and blank images with a reason", async () => {
    const { bytes } = await renderTextImage(lines);
    const reasons = async (fileName: string, file: Uint8Array, ocr = true) => {
      const error = await readImage(fileName, file, { ocr }).then(
        () => null,
        (thrown: unknown) => thrown,
      );
      expect(error, fileName).toBeInstanceOf(SourceReadError);
      return (error as SourceReadError).message;
    };
    expect(await reasons("cut.png", bytes.slice(0, bytes.length >> 2))).toBe(
      "The PNG image could not be read; it may be truncated or damaged.",
    );
    // Tesseract reads a text file as a list of image paths: it never gets one.
    expect(await reasons("list.png", new TextEncoder().encode("/etc/hostname\n"))).toBe(
      "The file is named .png but is not a PNG, JPEG, TIFF or WebP image.",
    );
    // Refused from its header, before tesseract would decode 400 million pixels.
    expect(await reasons("bomb.png", pixelBombPng(20_000))).toBe(
      "The image is 20000 × 20000 pixels; images of up to 60 million pixels are read.",
    );
    const blank = await renderTextImage([]);
    expect(await reasons("blank.png", blank.bytes)).toBe("No text could be read from the image.");
    expect(await reasons("pump.png", bytes, false)).toMatch(
      /read with OCR, which is not installed or is turned off/,
    );
  });
});

describe("image blocks from OCR words", () => {
  const word = (line: string, left: number, top: number, text: string): OcrWord => ({
    page: 1,
    line,
    left,
    top,
    width: text.length * 10,
    height: 20,
    text,
  });

  it("splits paragraphs into sentences and boxes each sentence's part of every line it crosses", () => {
    const words = [
      word("1/1/1", 10, 100, "Drain"),
      word("1/1/1", 80, 100, "it."),
      word("1/1/1", 120, 100, "Then"),
      word("1/1/2", 10, 130, "refill."),
      word("1/2/1", 10, 200, "Done."),
    ];
    const blocks = imageBlocks(words, { width: 400, height: 300 });
    expect(blocks).toHaveLength(2);
    expect(blocks[0]?.sentences).toEqual([
      {
        text: "Drain it.",
        spans: [{ page_index: 0, rects: [[10, 100, 110, 120]], page_width: 400, page_height: 300 }],
      },
      {
        text: "Then refill.",
        spans: [
          {
            page_index: 0,
            rects: [
              [120, 100, 160, 120],
              [10, 130, 80, 150],
            ],
            page_width: 400,
            page_height: 300,
          },
        ],
      },
    ]);
    expect(blocks[1]?.evidence).toEqual({ kind: "image", url: null, alt: "", ocr: true });
  });
});

describe("image types", () => {
  const bytes = (...values: Array<number | string>) =>
    new Uint8Array(
      values.flatMap((value) => (typeof value === "string" ? [...Buffer.from(value, "latin1")] : [value])),
    );

  it("tells PNG, JPEG, TIFF and WebP by their first bytes, and nothing else", () => {
    expect(sniffImage(bytes(0x89, "PNG\r\n\x1a\n"))?.mime).toBe("image/png");
    expect(sniffImage(bytes(0xff, 0xd8, 0xff, 0xe0))?.mime).toBe("image/jpeg");
    expect(sniffImage(bytes("II*\0"))?.mime).toBe("image/tiff");
    expect(sniffImage(bytes("MM\0*"))?.mime).toBe("image/tiff");
    expect(sniffImage(bytes("RIFF\x10\0\0\0WEBPVP8 "))?.mime).toBe("image/webp");
    expect(sniffImage(bytes("RIFF\x10\0\0\0WAVEfmt "))).toBeNull();
    expect(sniffImage(bytes("GIF89a"))).toBeNull();
    expect(sniffImage(bytes("%PDF-1.7"))).toBeNull();
    expect(sniffImage(new Uint8Array())).toBeNull();
  });
});
