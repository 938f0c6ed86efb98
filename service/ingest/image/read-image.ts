/** Reads an uploaded image (PNG, JPEG, TIFF, WebP) with tesseract: its text, each sentence boxed in pixels. */
import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { imageSize } from "image-size";
import { isOcrAvailable, parseTesseractTsv, tesseractPageSizes, tesseractTsv } from "../pdf/ocr.ts";
import { createScratchFolder } from "../pdf/ocr-scratch.ts";
import { SourceReadError, type TextExtraction } from "../types.ts";
import { imageBlocks } from "./image-blocks.ts";
import { sniffImage } from "./image-type.ts";

/**
 * The largest picture read: a page scanned at 600 dpi is about 35 million pixels. A few kilobytes of PNG can
 * claim billions, which tesseract would try to hold in memory (400 million took it 9 s and 420 MB).
 */
export const maxImagePixels = 60_000_000;

/** Width × height as the file's header states them, or null when the header cannot be read. */
function statedSize(bytes: Uint8Array): { width: number; height: number } | null {
  try {
    const { width, height } = imageSize(bytes);
    return { width, height };
  } catch {
    // A header image-size cannot read is left to tesseract, which says whether the image is damaged.
    return null;
  }
}

/** Why a file named as an image is not one, in plain words. */
export function notAnImage(fileName: string): string {
  const extension = path.extname(fileName).toLowerCase();
  return `The file is named ${extension} but is not a PNG, JPEG, TIFF or WebP image.`;
}

async function ocrTsv(bytes: Uint8Array, extension: string, name: string): Promise<string> {
  const folder = await createScratchFolder();
  try {
    // Tesseract reads a file that is not an image as a list of image paths: only sniffed images get here.
    const file = path.join(folder, `image${extension}`);
    await writeFile(file, bytes);
    return await tesseractTsv(file).catch((error: unknown) => {
      throw new SourceReadError(`The ${name} image could not be read; it may be truncated or damaged.`, {
        cause: error,
      });
    });
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

export async function readImage(
  fileName: string,
  bytes: Uint8Array,
  options: { ocr: boolean },
): Promise<TextExtraction> {
  const type = sniffImage(bytes.subarray(0, 16));
  if (type === null) throw new SourceReadError(notAnImage(fileName));
  const stated = statedSize(bytes);
  if (stated !== null && stated.width * stated.height > maxImagePixels) {
    throw new SourceReadError(
      `The image is ${stated.width} × ${stated.height} pixels; images of up to ${maxImagePixels / 1_000_000} million pixels are read.`,
    );
  }
  if (!options.ocr || !(await isOcrAvailable())) {
    throw new SourceReadError(
      "Images are read with OCR, which is not installed or is turned off on this service.",
    );
  }
  const tsv = await ocrTsv(bytes, type.extension, type.name);
  const sizes = tesseractPageSizes(tsv);
  const [size] = sizes;
  if (size === undefined) throw new SourceReadError(`The ${type.name} image holds no picture to read.`);
  const blocks = imageBlocks(
    parseTesseractTsv(tsv).filter((word) => word.page === 1),
    size,
  );
  if (blocks.length === 0) throw new SourceReadError("No text could be read from the image.");
  const warnings = ["The text was read with OCR: a word may be misread."];
  if (sizes.length > 1) warnings.push(`Only the first of the TIFF's ${sizes.length} pages was read.`);
  return { title: null, blocks, warnings };
}
