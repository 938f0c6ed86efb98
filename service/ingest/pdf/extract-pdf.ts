/** The PDF reader: bytes → text blocks under headings, each sentence with its highlight rectangles. */
import type { PDFDocumentProxy } from "pdfjs-dist/types/src/pdf";
import type { PdfSpan } from "../../../sdk/core/wire.ts";
import { sentenceRanges } from "../sentences.ts";
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
import { cleanText } from "./text-clean.ts";
import { noTextMessage, type OcrStatus, pageWarnings } from "./warnings.ts";

export interface ExtractPdfOptions {
  /** Read pages without a text layer with OCR, when tesseract and pdftoppm are installed. */
  ocr: boolean;
  onProgress?: (pagesDone: number, pageCount: number) => void;
}

/**
 * The printed page labels ("i", "ii", "1"…) where the PDF defines them; null where it does not, or
 * where they only repeat the file's page numbers.
 */
async function readPageLabels(document: PDFDocumentProxy): Promise<string[] | null> {
  const labels = await document.getPageLabels();
  if (labels === null || labels.every((label, index) => label === String(index + 1))) return null;
  return labels;
}

async function readTitle(document: PDFDocumentProxy): Promise<string | null> {
  const { info } = await document.getMetadata();
  const title = info !== null && typeof info === "object" && "Title" in info ? info.Title : null;
  if (typeof title !== "string") return null;
  const cleaned = cleanText(title).trim();
  return cleaned === "" ? null : cleaned;
}

function buildSourceBlocks(
  pages: readonly PageResult[],
  bodySize: number,
  pageLabels: readonly string[] | null,
): SourceBlock[] {
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
    const sentences = sentenceRanges(draft.text, { lineOffsets: draft.lineOffsets }).map((range) => ({
      text: draft.text.slice(range.start, range.end).replace(/\s+/g, " "),
      spans: labelled(sentenceSpans(draft, range.start, range.end, sizes), pageLabels),
    }));
    if (sentences.length > 0) blocks.push({ headingPath: draft.headingPath, sentences });
  }
  return blocks;
}

function labelled(spans: PdfSpan[], pageLabels: readonly string[] | null): PdfSpan[] {
  if (pageLabels === null) return spans;
  return spans.map((span) => {
    const label = pageLabels[span.page_index];
    return label === undefined ? span : { ...span, page_label: label };
  });
}

/**
 * An open PDF whose pages are read range by range, possibly by several workers each holding its own
 * reading; `assembleExtraction` then joins all pages into the document's text blocks.
 */
export interface PdfReading {
  pageCount: number;
  /** The title from the document's metadata, if it has one. */
  metadataTitle: string | null;
  /** The printed page labels, where the document defines its own. */
  pageLabels: string[] | null;
  ocr: OcrStatus;
  /**
   * Reads the text layers of pages `[first, end)` in order; OCR of pages without one runs beside them and
   * beside the ranges read next. Resolves once the text layers are read, with `done`, which resolves when
   * every page of the range is done, OCR included. `onPageDone` is called once per page, when it is done.
   */
  readPages(first: number, end: number, onPageDone?: () => void): Promise<{ done: Promise<void> }>;
  /** The pages read so far, in page order, once their OCR is done. */
  pages(): Promise<PageResult[]>;
  /** Pages `[first, end)` once their OCR is done, handed over: this reading forgets them. */
  takePages(first: number, end: number): Promise<PageResult[]>;
  /** Pages another worker read. */
  addPages(read: readonly PageResult[]): void;
  close(): Promise<void>;
}

/**
 * Opens a PDF for reading. Takes ownership of `bytes` (pdfjs keeps reading them). Throws `PdfReadError`
 * for encrypted, unreadable or empty documents.
 */
export async function openPdfReading(
  bytes: Uint8Array,
  options: {
    ocr: boolean;
    /** Read the title from the metadata (helpers reading a range skip it). */
    metadata?: boolean;
  },
): Promise<PdfReading> {
  const ocrInstalled = options.ocr && (await isOcrAvailable());
  const opened = await openPdf(bytes);
  const { document } = opened;
  // OCR renders from a file of its own, written from pdfjs's copy of the bytes on the first scanned page.
  const ocr = ocrInstalled ? createOcrSession(() => document.getData()) : null;
  try {
    if (document.numPages === 0) throw new PdfReadError("empty", EMPTY_MESSAGE);
    const metadataTitle = options.metadata === false ? null : await readTitle(document);
    const pageLabels = options.metadata === false ? null : await readPageLabels(document);
    return createReading(
      opened,
      ocr,
      { metadataTitle, pageLabels },
      { ocrRequested: options.ocr, ocrInstalled },
    );
  } catch (error) {
    await opened.close();
    await ocr?.close();
    throw error;
  }
}

function createReading(
  opened: Awaited<ReturnType<typeof openPdf>>,
  ocr: OcrSession | null,
  metadata: Pick<PdfReading, "metadataTitle" | "pageLabels">,
  ocrStatus: OcrStatus,
): PdfReading {
  const { document } = opened;
  const pages = new Map<number, Promise<PageResult>>();
  // OCR runs in child processes one page at a time, while pdfjs goes on reading text layers.
  let ocrQueue: Promise<unknown> = Promise.resolve();
  const settled = (): Promise<unknown> => Promise.allSettled(pages.values());
  return {
    pageCount: document.numPages,
    ...metadata,
    ocr: ocrStatus,
    async readPages(first, end, onPageDone) {
      const done = (page: PageResult): PageResult => {
        onPageDone?.();
        return page;
      };
      const range: Promise<PageResult>[] = [];
      for (let pageIndex = first; pageIndex < end; pageIndex++) {
        const { page, ocrArea } = await readTextLayer(document, pageIndex);
        if (ocrArea !== null && ocr !== null) {
          const recognized = ocrQueue.then(() => withOcrText(page, ocr, ocrArea));
          ocrQueue = recognized;
          range.push(recognized.then(done));
        } else {
          range.push(Promise.resolve(done(page)));
        }
        pages.set(pageIndex, range.at(-1) as Promise<PageResult>);
      }
      return { done: Promise.all(range).then(() => undefined) };
    },
    async pages() {
      const indices = [...pages.keys()].sort((a, b) => a - b);
      return Promise.all(indices.map((index) => pages.get(index) as Promise<PageResult>));
    },
    async takePages(first, end) {
      const taken: Promise<PageResult>[] = [];
      for (let index = first; index < end; index++) {
        const page = pages.get(index);
        if (page === undefined) throw new Error(`page ${index} was not read`);
        taken.push(page);
        pages.delete(index);
      }
      return Promise.all(taken);
    },
    addPages(read) {
      for (const page of read) pages.set(page.info.index, Promise.resolve(page));
    },
    async close() {
      // No OCR process may outlive the reading: its scratch folder is removed next.
      await settled();
      await opened.close();
      await ocr?.close();
    },
  };
}

/** The document from all its pages. Throws `PdfReadError` when no page has any text. */
export function assembleExtraction(
  reading: Pick<PdfReading, "pageCount" | "metadataTitle" | "pageLabels" | "ocr">,
  pages: readonly PageResult[],
): PdfExtraction {
  if (pages.every((page) => page.problem === "unreadable"))
    throw new PdfReadError("corrupt", CORRUPT_MESSAGE);
  if (pages.every((page) => page.info.textChars === 0)) {
    throw new PdfReadError("no_text", noTextMessage(reading.ocr));
  }
  const lines = pages.map((page) => page.lines);
  const bodySize = bodyFontSize(lines.flat());
  return {
    pageCount: reading.pageCount,
    title: reading.metadataTitle ?? titleFromFirstPage(lines, bodySize),
    pages: pages.map((page) => page.info),
    blocks: buildSourceBlocks(pages, bodySize, reading.pageLabels),
    warnings: pageWarnings(pages, reading.ocr),
  };
}

/**
 * Extracts text with positions from a PDF in the calling thread. Takes ownership of `bytes`.
 * Throws `PdfReadError` for encrypted, unreadable, empty or text-less documents.
 */
export async function extractPdf(bytes: Uint8Array, options: ExtractPdfOptions): Promise<PdfExtraction> {
  const reading = await openPdfReading(bytes, options);
  try {
    let pagesDone = 0;
    const { done } = await reading.readPages(0, reading.pageCount, () =>
      options.onProgress?.(++pagesDone, reading.pageCount),
    );
    await done;
    return assembleExtraction(reading, await reading.pages());
  } finally {
    await reading.close();
  }
}
