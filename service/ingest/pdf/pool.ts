/**
 * A pool of worker threads reading PDFs, one per core, each started when there is a document for it: a
 * service that has not read a PDF yet neither loads pdfjs nor holds its memory, and a service just started
 * answers its first requests without two threads loading code beside them. A document is opened by one
 * worker (its owner); its pages are handed out in ranges, and a worker with nothing else to do opens the
 * document too and reads ranges of it, so one large PDF keeps every core busy. The owner joins all pages
 * at the end.
 */
import os from "node:os";
import type { PdfExtraction } from "../types.ts";
import type { ExtractPdfOptions } from "./extract-pdf.ts";
import { removeStaleScratch } from "./ocr-scratch.ts";
import { dispatch } from "./pool/dispatch.ts";
import { fail } from "./pool/documents.ts";
import { createScratchCleanups } from "./pool/scratch-cleanups.ts";
import { closedError, type Job, type PoolState } from "./pool/state.ts";
import { onWorkerExit, onWorkerMessage } from "./pool/worker-events.ts";
import { startWorker, stopWorkers } from "./pool/worker-thread.ts";

export interface PdfExtractorPool {
  /** Extracts one PDF in worker threads. The caller's bytes are copied, never modified. */
  extract(bytes: Uint8Array, options: ExtractPdfOptions): Promise<PdfExtraction>;
  /** Stops every worker; pending and running extractions reject. */
  close(): Promise<void>;
}

export interface PdfExtractorPoolOptions {
  /** Worker threads; default one per core. */
  size?: number;
  /** Heap limit per worker, so one pathological PDF fails alone instead of taking the process down. */
  maxHeapMb?: number;
  /** The worker script; tests substitute one. */
  workerUrl?: URL;
}

export function createPdfExtractorPool(options: PdfExtractorPoolOptions = {}): PdfExtractorPool {
  const thread = {
    workerUrl: options.workerUrl ?? new URL("./worker.ts", import.meta.url),
    maxHeapMb: options.maxHeapMb ?? 1536,
  };
  const state: PoolState = {
    size: Math.max(1, options.size ?? os.availableParallelism()),
    workers: new Set(),
    queue: [],
    jobs: new Map(),
    nextId: 1,
    closed: false,
    scratch: createScratchCleanups(),
    spawn: () => {
      const worker = startWorker(thread, {
        message: (started, message) => onWorkerMessage(state, started, message),
        exit: (exited, code) => onWorkerExit(state, exited, code),
      });
      state.workers.add(worker);
      return worker;
    },
  };
  state.scratch.track(removeStaleScratch());
  return {
    extract: (bytes, extractOptions) => extract(state, bytes, extractOptions),
    close: () => close(state),
  };
}

function extract(state: PoolState, bytes: Uint8Array, options: ExtractPdfOptions): Promise<PdfExtraction> {
  if (state.closed) return Promise.reject(closedError());
  return new Promise<PdfExtraction>((resolve, reject) => {
    const job: Job = {
      id: state.nextId++,
      // Posting a view would copy its whole underlying buffer into every worker.
      bytes: bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice(),
      options,
      resolve,
      reject,
      owner: null,
      readers: new Map(),
      pageCount: null,
      next: 0,
      lost: [],
      pagesDone: 0,
      assembling: false,
    };
    state.jobs.set(job.id, job);
    state.queue.push(job);
    dispatch(state);
  });
}

async function close(state: PoolState): Promise<void> {
  state.closed = true;
  state.queue.length = 0;
  for (const job of [...state.jobs.values()]) fail(state, job, closedError());
  await stopWorkers([...state.workers], state.scratch);
  await state.scratch.settled();
}
