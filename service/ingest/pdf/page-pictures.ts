/** Whether a page without a text layer draws anything OCR could read, so blank pages are never rendered. */
import type { PDFPageProxy } from "pdfjs-dist/types/src/pdf";
import { loadPdfjs } from "./pdf-document.ts";

/**
 * Text converted to outlines draws one path per glyph; fewer paths than this (rules, boxes, a logo) hold
 * nothing to recognise.
 */
const OUTLINED_TEXT_PATHS = 200;

let imageOps: Promise<ReadonlySet<number>> | null = null;

function imagePaintingOps(): Promise<ReadonlySet<number>> {
  imageOps ??= loadPdfjs().then(({ OPS }) => {
    const names: (keyof typeof OPS)[] = [
      "paintImageXObject",
      "paintImageXObjectRepeat",
      "paintInlineImageXObject",
      "paintInlineImageXObjectGroup",
      "paintImageMaskXObject",
      "paintImageMaskXObjectGroup",
      "paintImageMaskXObjectRepeat",
      "paintSolidColorImageMask",
    ];
    return new Set(names.map((name) => OPS[name]));
  });
  return imageOps;
}

/** True when the page paints an image (a scan, a photo of text) or enough vector shapes to be outlined text. */
export async function drawsPictures(page: PDFPageProxy): Promise<boolean> {
  const [images, { OPS }] = await Promise.all([imagePaintingOps(), loadPdfjs()]);
  const { fnArray } = await page.getOperatorList();
  let paths = 0;
  for (const op of fnArray) {
    if (images.has(op)) return true;
    if (op === OPS.constructPath && ++paths >= OUTLINED_TEXT_PATHS) return true;
  }
  return false;
}
