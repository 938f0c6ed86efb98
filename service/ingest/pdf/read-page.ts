/** Reads one page: its size, its text lines from the text layer, or from OCR when the page is a scan. */
import type { PDFDocumentProxy } from "pdfjs-dist/types/src/pdf";
import type { PdfPageInfo } from "../types.ts";
import { type Matrix, type Rect, round2 } from "./geometry.ts";
import type { OcrSession } from "./ocr.ts";
import { ocrBox, type PictureArea, pictureArea } from "./page-pictures.ts";
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
  /** For a page with hardly any text: where it draws something OCR could read. Null when not checked. */
  pictures: PictureArea | null;
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
      const pictures =
        chars < OCR_THRESHOLD ? await pictureArea(page, transform).catch((): PictureArea => "page") : null;
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

export interface TextLayerPage {
  page: PageResult;
  /** For a page with (almost) no text that draws something: where OCR may read it; otherwise null. */
  ocrArea: "page" | Rect | null;
}

/** The page as its text layer has it; a blank page (nothing drawn to read) counts as searchable. */
export async function readTextLayer(document: PDFDocumentProxy, pageIndex: number): Promise<TextLayerPage> {
  const text = await pdfPageText(document, pageIndex);
  if (text === null) {
    const info = { index: pageIndex, width: 1, height: 1, textChars: 0, ocr: false, searchable: false };
    return { page: { info, lines: [], problem: "unreadable" }, ocrArea: null };
  }
  const lines = buildLines(text.items, text.styles, text.transform, pageIndex);
  const textChars = charsOf(lines);
  const blank = text.pictures === "none";
  const info: PdfPageInfo = {
    index: pageIndex,
    width: round2(text.width),
    height: round2(text.height),
    textChars,
    ocr: false,
    searchable: textChars > 0 || blank,
  };
  // Pictures were not looked for when the raw text was long enough, though fewer characters made it to lines.
  const pictures = text.pictures ?? "page";
  let ocrArea: TextLayerPage["ocrArea"] = null;
  if (textChars < OCR_THRESHOLD && pictures !== "none") {
    ocrArea =
      pictures === "page"
        ? "page"
        : ocrBox(
            pictures,
            lines.map((line) => line.box),
            text,
          );
  }
  return { page: { info, lines, problem: null }, ocrArea };
}

/** The page with OCR's text when OCR reads more than the text layer; an OCR failure is kept as the page's problem. */
export async function withOcrText(
  page: PageResult,
  ocr: OcrSession,
  area: "page" | Rect,
): Promise<PageResult> {
  try {
    const ocrLines = await ocr.readPage(page.info.index, area === "page" ? undefined : area);
    const ocrChars = charsOf(ocrLines);
    const better = ocrChars > page.info.textChars;
    return {
      info: {
        ...page.info,
        ocr: true,
        searchable: true,
        textChars: better ? ocrChars : page.info.textChars,
      },
      lines: better ? ocrLines : page.lines,
      problem: page.problem,
    };
  } catch {
    // A tesseract or pdftoppm failure costs this page its OCR text; the document status says so.
    return { ...page, problem: "ocr_failed" };
  }
}
