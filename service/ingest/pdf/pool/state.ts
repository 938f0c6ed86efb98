/**
 * What the PDF extractor pool keeps track of: its worker threads, the documents they read and the page
 * ranges each worker has in hand. The modules beside this one act on it.
 */
import type { Worker } from "node:worker_threads";
import type { PdfExtraction } from "../../types.ts";
import type { ExtractPdfOptions } from "../extract-pdf.ts";
import type { ScratchCleanups } from "./scratch-cleanups.ts";

export interface PageRange {
  first: number;
  end: number;
}

/** A worker's part in one document. */
export interface Reader {
  opened: boolean;
  /** Ranges handed to this worker and not answered yet; a crashed helper's are read again. */
  ranges: PageRange[];
  /** Pages of those ranges already counted as done. */
  pagesDone: number;
}

/** One document to extract, from the caller's request until its extraction or failure. */
export interface Job {
  id: number;
  /** Kept while a helper may still open the document. */
  bytes: Uint8Array | null;
  options: ExtractPdfOptions;
  resolve(extraction: PdfExtraction): void;
  reject(error: Error): void;
  owner: PoolWorker | null;
  readers: Map<PoolWorker, Reader>;
  pageCount: number | null;
  next: number;
  /** Ranges read by a helper that crashed, to be read again. */
  lost: PageRange[];
  pagesDone: number;
  assembling: boolean;
}

export interface PoolWorker {
  thread: Worker;
  /** Kept apart: `thread.threadId` reads -1 once the thread has exited. */
  threadId: number;
  /** Requests sent and not answered yet. */
  pending: number;
  jobs: Set<Job>;
  /** The error a crashing thread reported before it exited. */
  crash: Error | null;
}

export interface PoolState {
  /** Worker threads at most. */
  readonly size: number;
  readonly workers: Set<PoolWorker>;
  /** Documents waiting for a worker to own them, oldest first. */
  readonly queue: Job[];
  /** Documents neither extracted nor failed yet, by id. */
  readonly jobs: Map<number, Job>;
  nextId: number;
  closed: boolean;
  /** OCR scratch of killed workers and processes, removed in the background. */
  readonly scratch: ScratchCleanups;
  /** Starts one more worker thread and adds it to `workers`. */
  readonly spawn: () => PoolWorker;
}

export const newReader = (): Reader => ({ opened: false, ranges: [], pagesDone: 0 });

export const closedError = (): Error => new Error("The PDF extractor pool is closed.");
