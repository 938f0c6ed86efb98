/** How a cited PDF page is sized in its panel, and the page width in CSS pixels each choice gives. */
import type { PdfSpanLocation } from "../core/pdf-location.ts";

/**
 * `lines`: the cited lines fill the panel's width (with a margin); `width`: the page does; `page`: the
 * whole page fits the panel; a number scales the page width (1 = the panel's width).
 */
export type PdfZoom = "lines" | "width" | "page" | number;

/** The steps − and + move through, in units of the panel's width. */
const zoomSteps = [0.5, 0.75, 1, 1.25, 1.5, 2, 3] as const;

const maxScale = zoomSteps.at(-1) ?? 3;

/** Room left and right of the cited lines, as a share of the page's width. */
const linesMargin = 0.04;

/** The scale at which the cited lines (the first page's boxes) fill the panel's width, never below the page's width. */
function linesScale(span: Pick<PdfSpanLocation, "rects" | "pageWidth"> | undefined): number {
  if (span === undefined || span.rects.length === 0) return 1;
  const left = Math.min(...span.rects.map((rect) => Math.min(rect[0], rect[2])));
  const right = Math.max(...span.rects.map((rect) => Math.max(rect[0], rect[2])));
  const wanted = span.pageWidth / (right - left + 2 * linesMargin * span.pageWidth);
  return Math.min(maxScale, Math.max(1, Math.round(wanted * 100) / 100));
}

/** The scale of `zoom`, in units of the panel's width; `page` needs the panel's and the page's shape. */
export function zoomScale(
  zoom: PdfZoom,
  cited: Pick<PdfSpanLocation, "rects" | "pageWidth" | "pageHeight"> | undefined,
  panel: { width: number; height: number },
): number {
  if (typeof zoom === "number") return zoom;
  if (zoom === "width") return 1;
  if (zoom === "lines") return linesScale(cited);
  if (cited === undefined || panel.width <= 0 || panel.height <= 0) return 1;
  const pageWidthAtPanelHeight = (panel.height * cited.pageWidth) / cited.pageHeight;
  return Math.min(1, pageWidthAtPanelHeight / panel.width);
}

/** The next step of − (`direction` -1) or + (1) from `scale`, or null at the end. */
export function stepFrom(scale: number, direction: -1 | 1): number | null {
  const candidates =
    direction > 0
      ? zoomSteps.filter((step) => step > scale + 0.001)
      : zoomSteps.filter((step) => step < scale - 0.001);
  return (direction > 0 ? candidates[0] : candidates.at(-1)) ?? null;
}
