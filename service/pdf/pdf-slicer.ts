/**
 * Three-page slices of a stored PDF. The first slice of a document comes from qpdf (fast on a cold
 * file) while pdf-lib parses it in the background; later slices copy pages from the parsed document.
 * Slices are cached in memory and on disk.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { ParseSpeeds, PDFDocument } from "pdf-lib";
import type { BlobStore } from "../blobs.ts";
import { randomId } from "../ids.ts";

const run = promisify(execFile);

/** qpdf is a Debian package; without it every slice waits for pdf-lib's parse. */
const qpdfAvailable: Promise<boolean> = run("qpdf", ["--version"]).then(
  () => true,
  () => false,
);

export interface PdfSlice {
  bytes: Uint8Array<ArrayBuffer>;
  /** 0-based index of the slice's first page in the whole document. */
  start: number;
  pageCount: number;
}

/** Pages [page-1, page, page+1] clamped to the document: 3 pages, or all of them when there are fewer. */
export function sliceRange(page: number, pageCount: number): { start: number; end: number } {
  const size = Math.min(3, pageCount);
  const start = Math.max(0, Math.min(page - 1, pageCount - size));
  return { start, end: start + size - 1 };
}

class LruCache<Value> {
  private readonly entries = new Map<string, Value>();
  private readonly capacity: number;
  constructor(capacity: number) {
    this.capacity = capacity;
  }
  get(key: string): Value | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }
  delete(key: string): void {
    this.entries.delete(key);
  }
  set(key: string, value: Value): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
  }
}

async function copyPages(
  original: PDFDocument,
  start: number,
  end: number,
): Promise<Uint8Array<ArrayBuffer>> {
  const output = await PDFDocument.create({ updateMetadata: false });
  const indices = Array.from({ length: end - start + 1 }, (_, offset) => start + offset);
  for (const copied of await output.copyPages(original, indices)) output.addPage(copied);
  // pdf-lib allocates a plain ArrayBuffer; its typings only say ArrayBufferLike.
  return (await output.save({ useObjectStreams: true })) as Uint8Array<ArrayBuffer>;
}

export function createPdfSlicer(options: { blobs: BlobStore; cacheDir: string; parsedDocuments?: number }) {
  mkdirSync(options.cacheDir, { recursive: true });
  const parsed = new LruCache<{ document: Promise<PDFDocument>; settled: boolean }>(
    options.parsedDocuments ?? 8,
  );
  const slices = new LruCache<PdfSlice>(64);

  const isParsed = (sha256: string) => parsed.get(sha256)?.settled === true;

  function source(sha256: string): Promise<PDFDocument> {
    const existing = parsed.get(sha256);
    if (existing) return existing.document;
    const entry = {
      document: options.blobs
        .read(sha256)
        .then((bytes) => PDFDocument.load(bytes, { parseSpeed: ParseSpeeds.Fastest, updateMetadata: false })),
      settled: false,
    };
    // A failed parse is not cached: the next request tries again.
    entry.document.then(
      () => {
        entry.settled = true;
      },
      () => parsed.delete(sha256),
    );
    parsed.set(sha256, entry);
    return entry.document;
  }

  /** False when qpdf cannot read the file; pdf-lib then gets its turn. */
  async function sliceWithQpdf(sha256: string, start: number, end: number, target: string): Promise<boolean> {
    // The pdf-lib parse goes on in the background for the next slices; this one does not wait for it.
    source(sha256).catch(() => undefined);
    try {
      await run("qpdf", [
        "--empty",
        "--pages",
        options.blobs.pathOf(sha256),
        `${start + 1}-${end + 1}`,
        "--",
        target,
      ]);
      return true;
    } catch {
      await rm(target, { force: true });
      return false;
    }
  }

  return {
    async slice(sha256: string, page: number, pageCount: number): Promise<PdfSlice> {
      const { start, end } = sliceRange(page, pageCount);
      const key = `${sha256}-${start}-${end}`;
      const cached = slices.get(key);
      if (cached) return cached;
      const file = join(options.cacheDir, `${key}.pdf`);
      let bytes: Uint8Array<ArrayBuffer>;
      if (existsSync(file)) {
        bytes = new Uint8Array(await readFile(file));
      } else {
        const staging = join(options.cacheDir, `${randomId("slice")}.tmp`);
        const parsing = source(sha256);
        const viaQpdf =
          !isParsed(sha256) && (await qpdfAvailable) && (await sliceWithQpdf(sha256, start, end, staging));
        if (viaQpdf) {
          bytes = new Uint8Array(await readFile(staging));
        } else {
          bytes = await copyPages(await parsing, start, end);
          await writeFile(staging, bytes);
        }
        await rename(staging, file);
      }
      const slice = { bytes, start, pageCount };
      slices.set(key, slice);
      return slice;
    },
  };
}

export type PdfSlicer = ReturnType<typeof createPdfSlicer>;
