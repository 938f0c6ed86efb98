/** A pool of worker threads running `extractPdf`, one document per worker, one worker per core. */
import os from "node:os";
import { isMarkedAsUntransferable, Worker } from "node:worker_threads";
import type { PdfExtraction } from "../types.ts";
import type { ExtractPdfOptions } from "./extract-pdf.ts";
import { removeStaleScratch, removeThreadScratch } from "./ocr-scratch.ts";
import {
  decodeExtraction,
  deserializeError,
  type ExtractRequest,
  type WorkerMessage,
} from "./worker-protocol.ts";

export interface PdfExtractorPool {
  /**
   * Extracts one PDF in a worker thread. The bytes are transferred, not copied: the caller's
   * buffer is detached afterwards (pass `bytes.slice()` to keep a copy).
   */
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

interface Job {
  id: number;
  bytes: Uint8Array;
  options: ExtractPdfOptions;
  resolve(extraction: PdfExtraction): void;
  reject(error: Error): void;
}

interface PoolWorker {
  thread: Worker;
  /** Kept apart: `thread.threadId` reads -1 once the thread has exited. */
  threadId: number;
  job: Job | null;
  /** The error a crashing thread reported before it exited. */
  crash: Error | null;
}

/** A buffer that can be handed over as is, or a single copy that can. */
function transferableCopy(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const buffer = bytes.buffer;
  const whole = bytes.byteOffset === 0 && bytes.byteLength === buffer.byteLength;
  if (whole && buffer instanceof ArrayBuffer && !isMarkedAsUntransferable(buffer)) {
    return bytes as Uint8Array<ArrayBuffer>;
  }
  // `new Uint8Array(view)` copies; `Buffer#slice` would not.
  return new Uint8Array(bytes);
}

export function createPdfExtractorPool(options: PdfExtractorPoolOptions = {}): PdfExtractorPool {
  const size = Math.max(1, options.size ?? os.availableParallelism());
  const workerUrl = options.workerUrl ?? new URL("./worker.ts", import.meta.url);
  const maxHeapMb = options.maxHeapMb ?? 1536;
  const workers = new Set<PoolWorker>();
  const queue: Job[] = [];
  let nextId = 1;
  let closed = false;
  // OCR scratch of killed workers and processes. A failure to remove it is reported by close();
  // until then it must not become an unhandled rejection.
  const cleanups: Promise<void>[] = [];
  let cleanupError: unknown = null;
  const track = (cleanup: Promise<void>): void => {
    cleanups.push(
      cleanup.catch((error: unknown) => {
        cleanupError ??= error;
      }),
    );
  };
  track(removeStaleScratch());

  const finish = (worker: PoolWorker): Job | null => {
    const job = worker.job;
    worker.job = null;
    return job;
  };

  const settle = (job: Job, message: Exclude<WorkerMessage, { type: "progress" }>): void => {
    if (message.type === "error") {
      job.reject(deserializeError(message.error));
      return;
    }
    try {
      job.resolve(decodeExtraction(message.json));
    } catch (error) {
      job.reject(error instanceof Error ? error : new Error(String(error)));
    }
  };

  const onMessage = (worker: PoolWorker, message: WorkerMessage): void => {
    const job = worker.job;
    if (job === null || job.id !== message.id) return;
    if (message.type === "progress") {
      try {
        job.options.onProgress?.(message.pagesDone, message.pageCount);
      } catch (error) {
        // A throwing progress callback fails its own job; the worker's late answer is then a no-op.
        job.reject(error instanceof Error ? error : new Error(String(error)));
      }
      return;
    }
    finish(worker);
    // An idle worker must not keep the process alive.
    worker.thread.unref();
    settle(job, message);
    dispatch();
  };

  const onExit = (worker: PoolWorker, code: number): void => {
    workers.delete(worker);
    track(removeThreadScratch(worker.threadId));
    const job = finish(worker);
    if (job !== null && closed) job.reject(new Error("The PDF extractor pool is closed."));
    else if (job !== null) {
      const detail = worker.crash?.message ?? `exit code ${code}`;
      job.reject(
        new Error(`The PDF extraction worker stopped unexpectedly (${detail}).`, { cause: worker.crash }),
      );
    }
    if (!closed) dispatch();
  };

  const spawn = (): PoolWorker => {
    const thread = new Worker(workerUrl, { resourceLimits: { maxOldGenerationSizeMb: maxHeapMb } });
    const worker: PoolWorker = { thread, threadId: thread.threadId, job: null, crash: null };
    thread.on("message", (message: WorkerMessage) => onMessage(worker, message));
    thread.on("error", (error) => {
      worker.crash = error;
    });
    thread.on("exit", (code) => onExit(worker, code));
    workers.add(worker);
    return worker;
  };

  const run = (worker: PoolWorker, job: Job): void => {
    worker.job = job;
    worker.thread.ref();
    const bytes = transferableCopy(job.bytes);
    const request: ExtractRequest = { id: job.id, bytes, ocr: job.options.ocr };
    worker.thread.postMessage(request, [bytes.buffer]);
  };

  function dispatch(): void {
    while (queue.length > 0) {
      let idle: PoolWorker | null = null;
      for (const worker of workers) {
        if (worker.job === null) {
          idle = worker;
          break;
        }
      }
      if (idle === null && workers.size < size) idle = spawn();
      if (idle === null) return;
      run(idle, queue.shift() as Job);
    }
  }

  return {
    extract(bytes, extractOptions) {
      if (closed) return Promise.reject(new Error("The PDF extractor pool is closed."));
      return new Promise<PdfExtraction>((resolve, reject) => {
        queue.push({ id: nextId++, bytes, options: extractOptions, resolve, reject });
        dispatch();
      });
    },
    async close() {
      closed = true;
      for (const job of queue.splice(0)) job.reject(new Error("The PDF extractor pool is closed."));
      const stopping = [...workers];
      await Promise.all(stopping.map((worker) => worker.thread.terminate()));
      for (const worker of stopping) track(removeThreadScratch(worker.threadId));
      await Promise.all(cleanups);
      if (cleanupError !== null) throw cleanupError;
    },
  };
}
