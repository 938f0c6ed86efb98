/**
 * Three-page slices of a stored PDF, made off the main thread. The first slice of a document comes from qpdf
 * (fast on a cold file) while a worker thread parses the document with pdf-lib; later slices are written from
 * the parsed document in that worker (slice-writer.ts). Without qpdf every slice comes from the worker. Parsed
 * documents and slices are kept in bounded in-memory caches.
 */
import { execFile } from "node:child_process";
import { stat } from "node:fs/promises";
import { promisify } from "node:util";
import type { BlobStore } from "../blobs.ts";
import { BoundedCache, type CacheBounds } from "./bounded-cache.ts";
import { createSliceWorkerClient } from "./slice-worker-client.ts";
import { mayCarryActions } from "./strip-actions.ts";

const run = promisify(execFile);
const mebibyte = 1024 * 1024;

export interface PdfSlice {
  bytes: Uint8Array<ArrayBuffer>;
  /** 0-based index of the slice's first page in the whole document. */
  start: number;
  pageCount: number;
}

export interface PdfSlicerOptions {
  blobs: Pick<BlobStore, "pathOf">;
  /**
   * Bounded by the original files' sizes; pdf-lib holds a few times that in memory, and the slice writer up to
   * about once more (the bytes of the objects slices have reached).
   */
  parsedDocuments?: CacheBounds;
  slices?: CacheBounds;
  /** The qpdf executable; `null` (or one that does not run) leaves every slice to pdf-lib. */
  qpdf?: string | null;
}

export const defaultSlicerBounds = {
  parsedDocuments: { maxEntries: 8, maxBytes: 64 * mebibyte },
  slices: { maxEntries: 256, maxBytes: 32 * mebibyte },
} satisfies Record<string, CacheBounds>;

/** Pages [page-1, page, page+1] clamped to the document: 3 pages, or all of them when there are fewer. */
export function sliceRange(page: number, pageCount: number): { start: number; end: number } {
  const size = Math.min(3, pageCount);
  const start = Math.max(0, Math.min(page - 1, pageCount - size));
  return { start, end: start + size - 1 };
}

async function qpdfRuns(command: string | null): Promise<boolean> {
  if (command === null) return false;
  return run(command, ["--version"]).then(
    () => true,
    () => false,
  );
}

export function createPdfSlicer(options: PdfSlicerOptions) {
  const qpdf = options.qpdf === undefined ? "qpdf" : options.qpdf;
  const qpdfAvailable = qpdfRuns(qpdf);
  /** Whether the worker has finished parsing each document it holds. */
  const parsed = new BoundedCache<{ settled: boolean }>(
    options.parsedDocuments ?? defaultSlicerBounds.parsedDocuments,
    (sha256) => worker.forget(sha256),
  );
  const slices = new BoundedCache<PdfSlice>(options.slices ?? defaultSlicerBounds.slices);
  const worker = createSliceWorkerClient({
    onParsed(sha256, ok) {
      const entry = parsed.get(sha256);
      if (!ok) parsed.delete(sha256);
      else if (entry) entry.settled = true;
      // Evicted while it was parsing: the worker must not keep what the bounds no longer count.
      else worker.forget(sha256);
    },
    onLost: () => parsed.clear(),
  });

  /** Has the worker parse the document for the next slices, unless it has it or is at it. */
  async function startParsing(sha256: string, path: string): Promise<void> {
    if (parsed.has(sha256)) return;
    parsed.set(sha256, { settled: false }, (await stat(path)).size);
    worker.parse(sha256, path);
  }

  /** Null when qpdf cannot read the file; the worker then gets its turn. */
  async function sliceWithQpdf(command: string, path: string, start: number, end: number) {
    try {
      const { stdout } = await run(
        command,
        // Without object streams every dictionary is plain text, so active content shows in the bytes.
        ["--empty", "--object-streams=disable", "--pages", path, `${start + 1}-${end + 1}`, "--", "-"],
        {
          encoding: "buffer",
          maxBuffer: 512 * mebibyte,
        },
      );
      return new Uint8Array(stdout);
    } catch {
      // qpdf refuses some damaged files that pdf-lib still reads.
      return null;
    }
  }

  return {
    async slice(sha256: string, page: number, pageCount: number): Promise<PdfSlice> {
      const { start, end } = sliceRange(page, pageCount);
      const key = `${sha256}-${start}-${end}`;
      const cached = slices.get(key);
      if (cached) return cached;
      const path = options.blobs.pathOf(sha256);
      const viaQpdf = parsed.get(sha256)?.settled !== true && qpdf !== null && (await qpdfAvailable);
      const fromQpdf = viaQpdf ? await sliceWithQpdf(qpdf, path, start, end) : null;
      // Started after qpdf is done, so the two do not compete for a core while a user waits.
      await startParsing(sha256, path);
      const bytes = fromQpdf
        ? mayCarryActions(fromQpdf)
          ? await worker.clean(fromQpdf)
          : fromQpdf
        : await worker.slice(sha256, path, start, end);
      const slice = { bytes, start, pageCount };
      slices.set(key, slice, bytes.byteLength);
      return slice;
    },
    close: () => worker.close(),
  };
}

export type PdfSlicer = ReturnType<typeof createPdfSlicer>;
