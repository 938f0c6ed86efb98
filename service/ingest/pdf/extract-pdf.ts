/** The PDF reader: bytes → text blocks under headings, each sentence with its highlight rectangles. */
import type { PDFDocumentProxy } from "pdfjs-dist/types/src/pdf";
import type { PdfExtraction, SourceBlock } from "../types.ts";
import { PdfReadError } from "../types.ts";
import { buildBlocks, typicalLineSpacing } from "./blocks.ts";
import { bodyFontSize, createHeadingClassifier, titleFromFirstPage } from "./headings.ts";
import { createOcrSession, isOcrAvailable, type OcrSession } from "./ocr.ts";
import { CORRUPT_MESSAGE, EMPTY_MESSAGE, openPdf } from "./pdf-document.ts";
import { type PageResult, readTextLayer, withOcrText } from "./read-page.ts";
import { orderLines } from "./reading-order.ts";
import { findRunningLines } from "./running-lines.ts";
import { sentenceSpans } from "./sentence-spans.ts";
import { splitSentences } from "./sentences.ts";
import { cleanText } from "./text-clean.ts";
import { noTextMessage, pageWarnings } from "./warnings.ts";

export interface ExtractPdfOptions {
  /** Read pages without a text layer with OCR, when tesseract and pdftoppm are installed. */
  ocr: boolean;
  onProgress?: (pagesDone: number, pageCount: number) => void;
}

async function readTitle(document: PDFDocumentProxy): Promise<string | null> {
  const { info } = await document.getMetadata();
  const title = info !== null && typeof info === "object" && "Title" in info ? info.Title : null;
  if (typeof title !== "string") return null;
  const cleaned = cleanText(title).trim();
  return cleaned === "" ? null : cleaned;
}

async function readPages(
  document: PDFDocumentProxy,
  ocr: OcrSession | null,
  onProgress: ExtractPdfOptions["onProgress"],
): Promise<PageResult[]> {
  const pageCount = document.numPages;
  const pages: Promise<PageResult>[] = [];
  let pagesDone = 0;
  const done = (page: PageResult): PageResult => {
    onProgress?.(++pagesDone, pageCount);
    return page;
  };
  // OCR runs in child processes one page at a time, while pdfjs goes on reading text layers.
  let ocrQueue: Promise<unknown> = Promise.resolve();
  try {
    for (let pageIndex = 0; pageIndex < pageCount; pageIndex++) {
      const { page, wantsOcr } = await readTextLayer(document, pageIndex);
      if (wantsOcr && ocr !== null) {
        const recognized = ocrQueue.then(() => withOcrText(page, ocr));
        ocrQueue = recognized;
        pages.push(recognized.then(done));
      } else {
        pages.push(Promise.resolve(done(page)));
      }
    }
  } catch (error) {
    // No OCR process may outlive the extraction: its scratch folder is removed next.
    await Promise.allSettled(pages);
    throw error;
  }
  return Promise.all(pages);
}

function buildSourceBlocks(pages: readonly PageResult[], bodySize: number): SourceBlock[] {
  const running = findRunningLines(
    pages.map((page) => ({ height: page.info.height, lines: page.lines })),
    bodySize,
  );
  const ordered = pages.map((page) => orderLines(page.lines.filter((line) => !running.has(line))));
  const headings = createHeadingClassifier(ordered.flat());
  const drafts = buildBlocks(ordered, headings, typicalLineSpacing(ordered));
  const sizes = pages.map((page) => ({ width: page.info.width, height: page.info.height }));
  const blocks: SourceBlock[] = [];
  for (const draft of drafts) {
    const sentences = splitSentences(draft.text, draft.lineOffsets).map((range) => ({
      text: draft.text.slice(range.start, range.end).replace(/\s+/g, " "),
      spans: sentenceSpans(draft, range.start, range.end, sizes),
    }));
    if (sentences.length > 0) blocks.push({ headingPath: draft.headingPath, sentences });
  }
  return blocks;
}

/**
 * Extracts text with positions from a PDF. Takes ownership of `bytes` (pdfjs detaches the buffer).
 * Throws `PdfReadError` for encrypted, unreadable, empty or text-less documents.
 */
export async function extractPdf(bytes: Uint8Array, options: ExtractPdfOptions): Promise<PdfExtraction> {
  const ocrInstalled = options.ocr && (await isOcrAvailable());
  // pdfjs detaches the bytes it is given; OCR renders from its own copy.
  const ocr = ocrInstalled && bytes.byteLength > 0 ? createOcrSession(new Uint8Array(bytes)) : null;
  try {
    const opened = await openPdf(bytes);
    try {
      const { document } = opened;
      if (document.numPages === 0) throw new PdfReadError("empty", EMPTY_MESSAGE);
      const metadataTitle = await readTitle(document);
      const pages = await readPages(document, ocr, options.onProgress);
      if (pages.every((page) => page.problem === "unreadable"))
        throw new PdfReadError("corrupt", CORRUPT_MESSAGE);
      const ocrStatus = { ocrRequested: options.ocr, ocrInstalled };
      if (pages.every((page) => page.info.textChars === 0)) {
        throw new PdfReadError("no_text", noTextMessage(ocrStatus));
      }
      const lines = pages.map((page) => page.lines);
      const bodySize = bodyFontSize(lines.flat());
      return {
        pageCount: document.numPages,
        title: metadataTitle ?? titleFromFirstPage(lines, bodySize),
        pages: pages.map((page) => page.info),
        blocks: buildSourceBlocks(pages, bodySize),
        warnings: pageWarnings(pages, ocrStatus),
      };
    } finally {
      await opened.close();
    }
  } finally {
    await ocr?.close();
  }
}
