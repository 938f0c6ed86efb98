/** Reads one page: its size, its text lines from the text layer, or from OCR when the page is a scan. */
import type { PDFDocumentProxy } from "pdfjs-dist/types/src/pdf";
import type { PdfPageInfo } from "../types.ts";
import { type Matrix, round2 } from "./geometry.ts";
import type { OcrSession } from "./ocr.ts";
import { drawsPictures } from "./page-pictures.ts";
import { countNonSpace } from "./text-clean.ts";
import { buildLines, type RawTextItem, type RawTextStyle, type TextLine } from "./text-lines.ts";

/** Below this many non-space characters a page is treated as a scan. */
const OCR_THRESHOLD = 20;

export type PageProblem = "unreadable" | "ocr_failed";

export interface PageResult {
  info: PdfPageInfo;
  lines: TextLine[];
  problem: PageProblem | null;
}

interface PdfPageText {
  width: number;
  height: number;
  transform: Matrix;
  items: RawTextItem[];
  styles: Record<string, RawTextStyle>;
  /** For a page with hardly any text: whether it draws something OCR could read. Null when not checked. */
  pictures: boolean | null;
}

/** The page's text layer, or null when pdfjs cannot parse the page (a damaged page, not a damaged file). */
async function pdfPageText(document: PDFDocumentProxy, pageIndex: number): Promise<PdfPageText | null> {
  try {
    const page = await document.getPage(pageIndex + 1);
    try {
      const viewport = page.getViewport({ scale: 1 });
      const content = await page.getTextContent();
      const items = content.items.filter(
        (item): item is RawTextItem & (typeof content.items)[number] => "str" in item,
      );
      const transform = viewport.transform as unknown as Matrix;
      const chars = items.reduce((sum, item) => sum + countNonSpace(item.str), 0);
      // When pdfjs cannot interpret the drawing, OCR (poppler) gets to look at the page.
      const pictures = chars < OCR_THRESHOLD ? await drawsPictures(page).catch(() => true) : null;
      return {
        width: viewport.width,
        height: viewport.height,
        transform,
        items,
        styles: content.styles,
        pictures,
      };
    } finally {
      page.cleanup();
    }
  } catch {
    // Only pdfjs runs in this block; the caller reports the page as unreadable.
    return null;
  }
}

const charsOf = (lines: readonly TextLine[]): number =>
  lines.reduce((sum, line) => sum + countNonSpace(line.text), 0);

export async function readPage(
  document: PDFDocumentProxy,
  pageIndex: number,
  ocr: OcrSession | null,
): Promise<PageResult> {
  const text = await pdfPageText(document, pageIndex);
  if (text === null) {
    const info = { index: pageIndex, width: 1, height: 1, textChars: 0, ocr: false, searchable: false };
    return { info, lines: [], problem: "unreadable" };
  }
  let lines = buildLines(text.items, text.styles, text.transform, pageIndex);
  const info: PdfPageInfo = {
    index: pageIndex,
    width: round2(text.width),
    height: round2(text.height),
    textChars: charsOf(lines),
    ocr: false,
    searchable: true,
  };
  let problem: PageProblem | null = null;
  // A blank page (no text, nothing drawn to read) is searchable in the sense that nothing on it is lost.
  const blank = text.pictures === false;
  if (info.textChars < OCR_THRESHOLD && ocr !== null && !blank) {
    try {
      const ocrLines = await ocr.readPage(pageIndex);
      info.ocr = true;
      if (charsOf(ocrLines) > info.textChars) {
        lines = ocrLines;
        info.textChars = charsOf(ocrLines);
      }
    } catch {
      // A tesseract or pdftoppm failure costs this page its OCR text; the document status says so.
      problem = "ocr_failed";
    }
  }
  info.searchable = info.textChars > 0 || info.ocr || blank;
  return { info, lines, problem };
}
