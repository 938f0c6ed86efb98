/** Reads an uploaded image (PNG, JPEG, TIFF, WebP) with tesseract: its text, each sentence boxed in pixels. */
import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { isOcrAvailable, parseTesseractTsv, tesseractPageSizes, tesseractTsv } from "../pdf/ocr.ts";
import { createScratchFolder } from "../pdf/ocr-scratch.ts";
import { SourceReadError, type TextExtraction } from "../types.ts";
import { imageBlocks } from "./image-blocks.ts";
import { sniffImage } from "./image-type.ts";

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
