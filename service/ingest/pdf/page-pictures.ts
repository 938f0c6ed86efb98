/** Whether a page without a text layer draws anything OCR could read, so blank pages are never rendered. */
import type { PDFPageProxy } from "pdfjs-dist/types/src/pdf";
import { loadPdfjs } from "./pdf-document.ts";

/**
 * Text converted to outlines draws at least one subpath per glyph; fewer subpaths than this (rules, boxes,
 * a logo) hold nothing to recognise.
 */
const OUTLINED_TEXT_SUBPATHS = 200;

// pdfjs 6 packs each painted path into one Float32Array of drawing commands, each followed by its points.
const POINTS_AFTER = [2, 2, 6, 4, 0]; // moveTo, lineTo, curveTo, quadraticCurveTo, closePath
const MOVE_TO = 0;

/** Subpaths (moveTo commands) of a `constructPath` operation's arguments `[paint, [path], bounds]`. */
function subpaths(args: unknown): number {
  const path = Array.isArray(args) && Array.isArray(args[1]) ? args[1][0] : null;
  if (!(path instanceof Float32Array)) return 0;
  let count = 0;
  for (let index = 0; index < path.length; ) {
    const command = path[index] as number;
    if (command === MOVE_TO) count++;
    index += 1 + (POINTS_AFTER[command] ?? path.length);
  }
  return count;
}

interface DrawingOps {
  images: ReadonlySet<number>;
  constructPath: number;
}

let drawingOps: Promise<DrawingOps> | null = null;

function loadDrawingOps(): Promise<DrawingOps> {
  drawingOps ??= loadPdfjs().then(({ OPS }) => {
    const images: (keyof typeof OPS)[] = [
      "paintImageXObject",
      "paintImageXObjectRepeat",
      "paintInlineImageXObject",
      "paintInlineImageXObjectGroup",
      "paintImageMaskXObject",
      "paintImageMaskXObjectGroup",
      "paintImageMaskXObjectRepeat",
      "paintSolidColorImageMask",
    ];
    return { images: new Set(images.map((name) => OPS[name])), constructPath: OPS.constructPath };
  });
  return drawingOps;
}

/** True when the page paints an image (a scan, a photo of text) or enough vector shapes to be outlined text. */
export async function drawsPictures(page: PDFPageProxy): Promise<boolean> {
  const { images, constructPath } = await loadDrawingOps();
  const { fnArray, argsArray } = await page.getOperatorList();
  let shapes = 0;
  for (const [index, op] of fnArray.entries()) {
    if (images.has(op)) return true;
    if (op === constructPath) shapes += subpaths(argsArray[index]);
    if (shapes >= OUTLINED_TEXT_SUBPATHS) return true;
  }
  return false;
}
