/** Three-page slices of a stored PDF: parsed documents kept in an LRU, slices cached on disk. */
import { existsSync, mkdirSync } from "node:fs";
import { readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ParseSpeeds, PDFDocument } from "pdf-lib";
import type { BlobStore } from "../blobs.ts";
import { randomId } from "../ids.ts";

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

export function createPdfSlicer(options: { blobs: BlobStore; cacheDir: string; parsedDocuments?: number }) {
  mkdirSync(options.cacheDir, { recursive: true });
  const parsed = new LruCache<Promise<PDFDocument>>(options.parsedDocuments ?? 8);
  const slices = new LruCache<PdfSlice>(64);

  function source(sha256: string): Promise<PDFDocument> {
    let document = parsed.get(sha256);
    if (!document) {
      document = options.blobs
        .read(sha256)
        .then((bytes) => PDFDocument.load(bytes, { parseSpeed: ParseSpeeds.Fastest, updateMetadata: false }));
      // A failed parse is not cached: the next request tries again.
      document.catch(() => parsed.delete(sha256));
      parsed.set(sha256, document);
    }
    return document;
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
        const original = await source(sha256);
        const output = await PDFDocument.create({ updateMetadata: false });
        const indices = Array.from({ length: end - start + 1 }, (_, offset) => start + offset);
        for (const copied of await output.copyPages(original, indices)) output.addPage(copied);
        // pdf-lib allocates a plain ArrayBuffer; its typings only say ArrayBufferLike.
        bytes = (await output.save({ useObjectStreams: true })) as Uint8Array<ArrayBuffer>;
        const staging = join(options.cacheDir, `${randomId("slice")}.tmp`);
        await writeFile(staging, bytes);
        await rename(staging, file);
      }
      const slice = { bytes, start, pageCount };
      slices.set(key, slice);
      return slice;
    },
  };
}

export type PdfSlicer = ReturnType<typeof createPdfSlicer>;
