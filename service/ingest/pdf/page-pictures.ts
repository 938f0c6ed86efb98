/**
 * Where OCR should look on a page without a text layer: nowhere (nothing drawn to read), the whole page, or
 * the box around the images it paints, so that a logo or a figure is not rendered and read as a full page.
 */
import type { PDFPageProxy } from "pdfjs-dist/types/src/pdf";
import { applyMatrix, type Matrix, type Rect, rectHeight, rectWidth, unionRect } from "./geometry.ts";
import { loadPdfjs } from "./pdf-document.ts";

/** `"none"`: nothing to read; `"page"`: the whole page; a rect: that box, in displayed points. */
export type PictureArea = "none" | "page" | Rect;

/**
 * Text converted to outlines draws at least one subpath per glyph; fewer subpaths than this (rules, boxes,
 * a logo) hold nothing to recognise.
 */
const OUTLINED_TEXT_SUBPATHS = 200;
/** White margin kept around the images' box: tesseract finds words touching the edge less reliably. */
const MARGIN = 6;
/** Above this share of the page, the box saves too little to be worth leaving anything out. */
const WHOLE_PAGE_SHARE = 0.6;

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

/** `outer` after `inner`: the map of a `cm` (or form matrix) `inner` applied under the current `outer`. */
function compose(outer: Matrix, inner: ArrayLike<number>): Matrix {
  const [a, b, c, d, e, f] = outer;
  const [ia = 0, ib = 0, ic = 0, id = 0, ie = 0, iff = 0] = Array.from(inner);
  return [
    a * ia + c * ib,
    b * ia + d * ib,
    a * ic + c * id,
    b * ic + d * id,
    a * ie + c * iff + e,
    b * ie + d * iff + f,
  ];
}

/** The box of the unit square (where PDF paints an image) under `matrix`. */
function unitSquareBox(matrix: Matrix): Rect {
  const corners = [
    applyMatrix(matrix, 0, 0),
    applyMatrix(matrix, 1, 0),
    applyMatrix(matrix, 0, 1),
    applyMatrix(matrix, 1, 1),
  ];
  const xs = corners.map(([x]) => x);
  const ys = corners.map(([, y]) => y);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

interface DrawingOps {
  /** Paint one image in the unit square of the current transform. */
  unitImages: ReadonlySet<number>;
  /** Paint images at transforms of their own (pdfjs's batched forms): the whole page is read. */
  batchedImages: ReadonlySet<number>;
  ops: Awaited<ReturnType<typeof loadPdfjs>>["OPS"];
}

let drawingOps: Promise<DrawingOps> | null = null;

function loadDrawingOps(): Promise<DrawingOps> {
  drawingOps ??= loadPdfjs().then(({ OPS }) => {
    const unitImages: (keyof typeof OPS)[] = [
      "paintImageXObject",
      "paintInlineImageXObject",
      "paintImageMaskXObject",
      "paintSolidColorImageMask",
    ];
    const batchedImages: (keyof typeof OPS)[] = [
      "paintImageXObjectRepeat",
      "paintInlineImageXObjectGroup",
      "paintImageMaskXObjectGroup",
      "paintImageMaskXObjectRepeat",
    ];
    return {
      unitImages: new Set(unitImages.map((name) => OPS[name])),
      batchedImages: new Set(batchedImages.map((name) => OPS[name])),
      ops: OPS,
    };
  });
  return drawingOps;
}

/**
 * What `page` draws for OCR to read: the box around its images (in displayed points, through `toDisplay`,
 * the page's viewport transform), the whole page when it draws outlined text or images this cannot place,
 * or nothing. See `ocrBox` for the box OCR then renders.
 */
export async function pictureArea(page: PDFPageProxy, toDisplay: Matrix): Promise<PictureArea> {
  const { unitImages, batchedImages, ops } = await loadDrawingOps();
  const { fnArray, argsArray } = await page.getOperatorList();
  let transform: Matrix = toDisplay;
  const saved: Matrix[] = [];
  let inAnnotation = 0;
  let shapes = 0;
  let images: Rect | null = null;
  for (const [index, op] of fnArray.entries()) {
    const args: unknown = argsArray[index];
    if (op === ops.save) saved.push(transform);
    else if (op === ops.restore || op === ops.paintFormXObjectEnd) transform = saved.pop() ?? transform;
    else if (op === ops.transform && Array.isArray(args)) transform = compose(transform, args as number[]);
    else if (op === ops.paintFormXObjectBegin) {
      saved.push(transform);
      const matrix = Array.isArray(args) ? args[0] : null;
      if (matrix instanceof Float32Array || Array.isArray(matrix)) transform = compose(transform, matrix);
    } else if (op === ops.beginAnnotation) inAnnotation++;
    else if (op === ops.endAnnotation) inAnnotation--;
    else if (op === ops.constructPath) {
      shapes += subpaths(args);
      if (shapes >= OUTLINED_TEXT_SUBPATHS) return "page";
    } else if (batchedImages.has(op) || (unitImages.has(op) && inAnnotation > 0)) return "page";
    else if (unitImages.has(op)) images = unionRect(images, unitSquareBox(transform));
  }
  return images ?? "none";
}

/**
 * The part of a `size` page OCR renders: its images and the text its text layer has besides them (OCR's
 * lines replace the text layer's), with a margin; the whole page when that box is most of it.
 */
export function ocrBox(
  images: Rect,
  text: readonly Rect[],
  size: { width: number; height: number },
): "page" | Rect {
  const drawn = text.reduce<Rect>((box, line) => unionRect(box, line), images);
  const box: Rect = [
    Math.max(0, drawn[0] - MARGIN),
    Math.max(0, drawn[1] - MARGIN),
    Math.min(size.width, drawn[2] + MARGIN),
    Math.min(size.height, drawn[3] + MARGIN),
  ];
  // Images entirely off the page mean the transforms were not followed as the renderer does: read it all.
  if (rectWidth(box) <= 0 || rectHeight(box) <= 0) return "page";
  const share = (rectWidth(box) * rectHeight(box)) / (size.width * size.height);
  return share > WHOLE_PAGE_SHARE ? "page" : box;
}
