/**
 * Three-page slices of a stored PDF, made off the main thread: a worker thread reads each document lazily and
 * writes slices from it (slice-worker.ts). A document the worker cannot slice (encrypted, or too damaged for
 * pdf-lib) is sliced by qpdf from then on, when qpdf is installed. Documents and slices are kept in bounded
 * in-memory caches.
 */
import { execFile } from "node:child_process";
import { stat } from "node:fs/promises";
import { promisify } from "node:util";
import type { BlobStore } from "../blobs.ts";
import { BoundedCache, type CacheBounds } from "./bounded-cache.ts";
import { createSliceWorkerClient, SliceWorkerLost } from "./slice-worker-client.ts";
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
   * Bounded by the original files' sizes; the worker holds the file, a few times that once it has parsed all
   * of it, and the slice writer up to about once more (the bytes of the objects slices have reached).
   */
  parsedDocuments?: CacheBounds;
  slices?: CacheBounds;
  /** The qpdf executable for documents the worker cannot slice; `null` (or one that does not run): none. */
  qpdf?: string | null;
  /** How long the worker may take over one slice before it is stopped and the document left to qpdf. */
  sliceTimeoutMs?: number;
}

const defaultSlicerBounds = {
  parsedDocuments: { maxEntries: 8, maxBytes: 64 * mebibyte },
  slices: { maxEntries: 256, maxBytes: 32 * mebibyte },
} satisfies Record<string, CacheBounds>;

/** Pages [page-1, page, page+1] clamped to the document: 3 pages, or all of them when there are fewer. */
function sliceRange(page: number, pageCount: number): { start: number; end: number } {
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
  /** The documents the worker holds, and those it could not slice. */
  const documents = new BoundedCache<{ reader: "worker" | "qpdf"; crashes: number }>(
    options.parsedDocuments ?? defaultSlicerBounds.parsedDocuments,
    (sha256) => worker.forget(sha256),
  );
  const slices = new BoundedCache<PdfSlice>(options.slices ?? defaultSlicerBounds.slices);
  const worker = createSliceWorkerClient(options.sliceTimeoutMs);

  /** Null when qpdf cannot read the file either. */
  async function sliceWithQpdf(path: string, start: number, end: number) {
    if (qpdf === null || !(await qpdfAvailable)) return null;
    try {
      const { stdout } = await run(
        qpdf,
        // Without object streams every dictionary is plain text, so active content shows in the bytes.
        ["--empty", "--object-streams=disable", "--pages", path, `${start + 1}-${end + 1}`, "--", "-"],
        {
          encoding: "buffer",
          maxBuffer: 512 * mebibyte,
        },
      );
      return new Uint8Array(stdout);
    } catch {
      // The caller reports the worker's reason, which says more than qpdf's refusal of the same file.
      return null;
    }
  }

  async function sliceOf(sha256: string, start: number, end: number): Promise<Uint8Array<ArrayBuffer>> {
    const path = options.blobs.pathOf(sha256);
    let held = documents.get(sha256);
    if (!held) {
      held = { reader: "worker", crashes: 0 };
      documents.set(sha256, held, (await stat(path)).size);
    }
    // A file too large for the bounds is read for this slice only.
    const kept = documents.has(sha256);
    let workerError: unknown;
    if (held.reader === "worker") {
      try {
        return await worker.slice(sha256, path, start, end);
      } catch (error) {
        workerError = error;
        // A crash may be another document's doing; a second one while this document was being sliced is not.
        held.crashes += error instanceof SliceWorkerLost ? 1 : 0;
        if (!(error instanceof SliceWorkerLost) || held.crashes >= 2) {
          held.reader = "qpdf";
          worker.forget(sha256);
        }
      } finally {
        if (!kept) worker.forget(sha256);
      }
    }
    const fromQpdf = await sliceWithQpdf(path, start, end);
    if (!fromQpdf) throw workerError ?? new Error(`neither the worker nor qpdf could slice ${sha256}`);
    return mayCarryActions(fromQpdf) ? await worker.clean(fromQpdf) : fromQpdf;
  }

  return {
    async slice(sha256: string, page: number, pageCount: number): Promise<PdfSlice> {
      const { start, end } = sliceRange(page, pageCount);
      const key = `${sha256}-${start}-${end}`;
      const cached = slices.get(key);
      if (cached) return cached;
      const bytes = await sliceOf(sha256, start, end);
      const slice = { bytes, start, pageCount };
      slices.set(key, slice, bytes.byteLength);
      return slice;
    },
    close: () => worker.close(),
  };
}

export type PdfSlicer = ReturnType<typeof createPdfSlicer>;
