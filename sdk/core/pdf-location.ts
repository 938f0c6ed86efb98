/** Where a PDF reference points: the page inside the served 3-page slice, and its highlight boxes. */
import { CitedError } from "./errors.ts";
import { limits } from "./limits.ts";
import type { PdfHighlightReference, Rect, Reference } from "./schemas/reference.ts";

export interface PdfSpanLocation {
  pageIndex: number;
  rects: Rect[];
  pageWidth: number;
  pageHeight: number;
  /** Index of this page in the slice, when the slice start is known and the page is in it. */
  pageInSlice?: number;
}

export interface PdfLocation {
  /** The short-lived PDF token for `GET /chat/reference/pdf/{token}?page={pageIndex}`. */
  token: string;
  expiresAt: string;
  /** 0-based index of the cited (first) page in the whole document. */
  pageIndex: number;
  /** Highlight boxes on that page, one per line, in PDF points from the top-left corner. */
  rects: Rect[];
  pageWidth: number;
  pageHeight: number;
  /** Every page the quote covers, the first one included. */
  spans: PdfSpanLocation[];
  /** Index of the cited page in the served slice (0, 1 or 2), once the slice start is known. */
  pageInSlice?: number;
}

/** Position and size in CSS pixels, for an absolutely positioned highlight box. */
export interface CssBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** The slice served for a reference does not contain its cited page. */
export class PdfSliceError extends CitedError {
  static override readonly errorName: string = "PdfSliceError";

  readonly pageIndex: number;
  readonly sliceStart: number;

  constructor(pageIndex: number, sliceStart: number) {
    super(
      `page ${pageIndex} is not in the ${limits.pdfSlicePages}-page slice starting at page ${sliceStart}`,
    );
    this.pageIndex = pageIndex;
    this.sliceStart = sliceStart;
  }
}

/**
 * The page and highlight of a `pdf_highlight` reference. Returns null for every other kind, so a
 * renderer can branch without try/catch: only PDF references have a page to show. Give
 * `sliceStart` (the `X-Pdf-Slice-Start` header of the page response) to learn where the cited
 * page sits in the 3-page slice.
 *
 * @throws {PdfSliceError} when the slice starting at `sliceStart` does not hold the cited page.
 *
 * @example
 * const location = pdfLocation(reference); // null unless reference.kind is "pdf_highlight"
 * // … after fetching the slice, whose X-Pdf-Slice-Start header said 21:
 * const placed = pdfLocation(reference, 21); // page_index 22 → placed.pageInSlice === 1
 */
export function pdfLocation(reference: Reference, sliceStart?: number): PdfLocation | null {
  if (reference.kind !== "pdf_highlight") return null;
  const location: PdfLocation = {
    token: reference.pdf.token,
    expiresAt: reference.pdf.expires_at,
    pageIndex: reference.page_index,
    rects: reference.rects,
    pageWidth: reference.page_width,
    pageHeight: reference.page_height,
    spans: spansOf(reference, sliceStart),
  };
  if (sliceStart === undefined) return location;
  const pageInSlice = indexInSlice(reference.page_index, sliceStart);
  if (pageInSlice === undefined) throw new PdfSliceError(reference.page_index, sliceStart);
  return { ...location, pageInSlice };
}

/**
 * Turns a rect in PDF points into a CSS box for a page rendered `renderedWidth` pixels wide
 * (the points are already in the page's displayed space, so one scale factor does it).
 *
 * @example
 * const box = scaleRect([72, 100, 540, 114], 612, 918); // 1.5 px per point
 * // { left: 108, top: 150, width: 702, height: 21 }: position an absolutely placed highlight with it
 */
export function scaleRect(rect: Rect, pageWidth: number, renderedWidth: number): CssBox {
  if (!(pageWidth > 0) || !(renderedWidth >= 0)) {
    throw new RangeError(`cannot scale a page ${pageWidth} points wide to ${renderedWidth} pixels`);
  }
  const scale = renderedWidth / pageWidth;
  const [x0, y0, x1, y1] = rect;
  return {
    left: Math.min(x0, x1) * scale,
    top: Math.min(y0, y1) * scale,
    width: Math.abs(x1 - x0) * scale,
    height: Math.abs(y1 - y0) * scale,
  };
}

function spansOf(reference: PdfHighlightReference, sliceStart: number | undefined): PdfSpanLocation[] {
  return reference.spans.map((span) => {
    const location: PdfSpanLocation = {
      pageIndex: span.page_index,
      rects: span.rects,
      pageWidth: span.page_width,
      pageHeight: span.page_height,
    };
    const pageInSlice = sliceStart === undefined ? undefined : indexInSlice(span.page_index, sliceStart);
    return pageInSlice === undefined ? location : { ...location, pageInSlice };
  });
}

function indexInSlice(pageIndex: number, sliceStart: number): number | undefined {
  const offset = pageIndex - sliceStart;
  return Number.isInteger(offset) && offset >= 0 && offset < limits.pdfSlicePages ? offset : undefined;
}

/**
 * The smallest rect holding all of `rects` (a reference's `bbox` from its lines' rects).
 *
 * @example
 * boundingRect([[72, 300, 540, 312], [72, 314, 320, 326]]); // [72, 300, 540, 326]
 */
export function boundingRect(rects: readonly Rect[]): Rect {
  if (rects.length === 0) throw new RangeError("no rects to bound");
  return [
    Math.min(...rects.map((rect) => rect[0])),
    Math.min(...rects.map((rect) => rect[1])),
    Math.max(...rects.map((rect) => rect[2])),
    Math.max(...rects.map((rect) => rect[3])),
  ];
}
