/** Pictures of text for tests: Helvetica lines on a PDF page, rendered by poppler as PNG, JPEG or TIFF. */
import { execFile } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { makeTextPdf } from "../ingest/pdf/testing/pdf-fixtures.ts";
import { temporaryDirectory } from "./temporary-directory.ts";

const run = promisify(execFile);

export type RenderedFormat = "png" | "jpeg" | "tiff";

const extensions: Record<RenderedFormat, string> = { png: "png", jpeg: "jpg", tiff: "tif" };

/** Pixels per inch of the render: a Letter page becomes 1275 × 1650 pixels. */
export const renderDpi = 150;

/**
 * A picture of `lines` (14 pt, 24 pt apart from the top left of a Letter page) at `renderDpi`, so a line's
 * top is near `(40 + 24 × i) × 150 / 72` pixels. Written to a temporary folder; returns its path and bytes.
 */
export async function renderTextImage(
  lines: readonly string[],
  format: RenderedFormat = "png",
): Promise<{ path: string; bytes: Uint8Array }> {
  const folder = temporaryDirectory("cka-image-");
  const pdfPath = path.join(folder, "text.pdf");
  await writeFile(
    pdfPath,
    makeTextPdf([lines.map((text, index) => ({ x: 40, y: 792 - 54 - index * 24, size: 14, text }))]),
  );
  const base = path.join(folder, "text");
  await run("pdftoppm", ["-r", String(renderDpi), `-${format}`, "-singlefile", pdfPath, base]);
  const imagePath = `${base}.${extensions[format]}`;
  return { path: imagePath, bytes: new Uint8Array(await readFile(imagePath)) };
}
