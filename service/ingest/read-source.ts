/** Picks the reader for a file (PDF, an image, a zipped document on a thread of its own, or one of the text formats) and returns its blocks. */
import { extname } from "node:path";
import { hasImageExtension, imageExtensions, sniffImage } from "./image/image-type.ts";
import { notAnImage, readImage } from "./image/read-image.ts";
import type { PdfExtractorPool } from "./pdf/pool.ts";
import { isTextSource, readTextSource, supportedTextExtensions } from "./text/read-text-source.ts";
import { type SourceBlock, SourceReadError, type TextSourceBlock } from "./types.ts";
import { isZipFormat, readZipFormatInWorker } from "./zip-formats/read-in-worker.ts";

export interface SourceContent {
  title: string | null;
  pages: number | null;
  blocks: Array<SourceBlock | TextSourceBlock>;
  warnings: string[];
}

export interface ReadContext {
  pdfPool: PdfExtractorPool;
  ocr: boolean;
  datasourceUrl: string | null;
  onProgress(pagesDone: number, pages: number): void;
}

const pdfMagic = [0x25, 0x50, 0x44, 0x46, 0x2d]; // "%PDF-"

function looksLikePdf(fileName: string, head: Uint8Array): boolean {
  return extname(fileName).toLowerCase() === ".pdf" || pdfMagic.every((byte, index) => head[index] === byte);
}

/** Why an upload cannot be read at all, in plain words, or null when a reader can try it. */
export function uploadProblem(fileName: string, head: Uint8Array, bytes: number): string | null {
  if (bytes === 0) return "The file is empty.";
  if (looksLikePdf(fileName, head) || sniffImage(head) !== null) return null;
  if (hasImageExtension(fileName)) return notAnImage(fileName);
  if (isTextSource(fileName, head)) return null;
  const extension = extname(fileName).toLowerCase() || "(none)";
  return `Unsupported file type ${extension}: upload PDF, an image (${imageExtensions.join(", ")}) or one of ${supportedTextExtensions.join(", ")}.`;
}

export async function readSource(
  fileName: string,
  bytes: Uint8Array,
  context: ReadContext,
): Promise<SourceContent> {
  if (looksLikePdf(fileName, bytes.subarray(0, 8))) {
    const extraction = await context.pdfPool.extract(bytes, {
      ocr: context.ocr,
      onProgress: context.onProgress,
    });
    return {
      title: extraction.title,
      pages: extraction.pageCount,
      blocks: extraction.blocks,
      warnings: extraction.warnings,
    };
  }
  const extraction =
    sniffImage(bytes.subarray(0, 16)) !== null || hasImageExtension(fileName)
      ? await readImage(fileName, bytes, { ocr: context.ocr })
      : isZipFormat(fileName)
        ? await readZipFormatInWorker(fileName, bytes)
        : readTextSource(fileName, bytes, { datasourceUrl: context.datasourceUrl });
  if (extraction.blocks.length === 0) throw new SourceReadError("The file holds no text to answer from.");
  return { title: extraction.title, pages: null, blocks: extraction.blocks, warnings: extraction.warnings };
}
