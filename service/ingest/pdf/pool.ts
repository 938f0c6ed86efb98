/**
 * A pool of worker threads reading PDFs, one per core, each started when there is a document for it: a
 * service that has not read a PDF yet neither loads pdfjs nor holds its memory, and a service just started
 * answers its first requests without two threads loading code beside them. A document is opened by one
 * worker (its owner); its pages are handed out in ranges, and a worker with nothing else to do opens the
 * document too and reads ranges of it, so one large PDF keeps every core busy. The owner joins all pages
 * at the end.
 */
import os from "node:os";
import { Worker } from "node:worker_threads";
import type { PdfExtraction } from "../types.ts";
import type { ExtractPdfOptions } from "./extract-pdf.ts";
import { removeStaleScratch, removeThreadScratch } from "./ocr-scratch.ts";
import {
  decodeExtraction,
  deserializeError,
  isAnswered,
  type WorkerMessage,
  type WorkerRequest,
} from "./worker-protocol.ts";

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

/** Pages per range handed to a worker at most; ranges shrink near a document's end (see `rangePages`). */
const RANGE_PAGES = 16;
const MIN_RANGE_PAGES = 2;
/** Requests a worker holds at once, so it never idles while the main thread is busy elsewhere. */
const DEPTH = 2;
/** A helper opens a document again and sends its pages over: worth it only for this many unread pages. */
const HELP_MIN_PAGES = 3 * RANGE_PAGES;

interface PageRange {
  first: number;
  end: number;
}

interface Reader {
  opened: boolean;
  /** Ranges handed to this worker and not answered yet; a crashed helper's are read again. */
  ranges: PageRange[];
  /** Pages of those ranges already counted as done. */
  pagesDone: number;
}

interface Job {
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

interface PoolWorker {
  thread: Worker;
  /** Kept apart: `thread.threadId` reads -1 once the thread has exited. */
  threadId: number;
  /** Requests sent and not answered yet. */
  pending: number;
  jobs: Set<Job>;
  /** The error a crashing thread reported before it exited. */
  crash: Error | null;
}

const newReader = (): Reader => ({ opened: false, ranges: [], pagesDone: 0 });

const closedError = (): Error => new Error("The PDF extractor pool is closed.");

export function createPdfExtractorPool(options: PdfExtractorPoolOptions = {}): PdfExtractorPool {
  const size = Math.max(1, options.size ?? os.availableParallelism());
  const workerUrl = options.workerUrl ?? new URL("./worker.ts", import.meta.url);
  const maxHeapMb = options.maxHeapMb ?? 1536;
  const workers = new Set<PoolWorker>();
  const queue: Job[] = [];
  const jobs = new Map<number, Job>();
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

  const post = (worker: PoolWorker, request: WorkerRequest, transfer: ArrayBuffer[] = []): void => {
    if (isAnswered(request.type)) worker.pending++;
    worker.thread.ref();
    worker.thread.postMessage(request, transfer);
  };

  const settle = (job: Job): boolean => {
    if (!jobs.has(job.id)) return false;
    jobs.delete(job.id);
    for (const worker of job.readers.keys()) worker.jobs.delete(job);
    job.bytes = null;
    return true;
  };

  const fail = (job: Job, error: Error): void => {
    const readers = [...job.readers.keys()];
    if (!settle(job)) return;
    for (const worker of readers) if (workers.has(worker)) post(worker, { type: "drop", id: job.id });
    job.reject(error);
  };

  const unassigned = (job: Job): number =>
    job.pageCount === null
      ? 0
      : job.pageCount - job.next + job.lost.reduce((sum, range) => sum + range.end - range.first, 0);

  /** A helper leaves the document: ranges it had not answered go back to be read by the others. */
  const leave = (job: Job, worker: PoolWorker, reader: Reader): void => {
    job.readers.delete(worker);
    worker.jobs.delete(job);
    job.lost.push(...reader.ranges);
    job.pagesDone -= reader.pagesDone;
    if (workers.has(worker)) post(worker, { type: "drop", id: job.id });
  };

  /** A helper with nothing in hand and nothing left to hand out lets go of its copy at once. */
  const releaseIfDone = (job: Job, worker: PoolWorker, reader: Reader): void => {
    if (reader.ranges.length === 0 && unassigned(job) === 0) leave(job, worker, reader);
  };

  /** Every page read and with the owner: helpers let go, the owner assembles the document. */
  const maybeFinish = (job: Job): void => {
    if (!jobs.has(job.id) || job.assembling || job.owner === null || unassigned(job) > 0) return;
    for (const reader of job.readers.values()) if (reader.ranges.length > 0) return;
    for (const [worker, reader] of job.readers) if (worker !== job.owner) leave(job, worker, reader);
    job.assembling = true;
    post(job.owner, { type: "assemble", id: job.id });
  };

  /** Once every worker has its own copy, no helper can join any more: the caller's bytes are let go. */
  const releaseBytes = (job: Job): void => {
    if (job.readers.size >= size) job.bytes = null;
  };

  /**
   * A share of the pages left: whole ranges of 16 while there are many, a few pages at the end, so that
   * no worker is still reading a long last range while the others have nothing left to do.
   */
  const rangePages = (left: number): number =>
    Math.min(RANGE_PAGES, Math.max(MIN_RANGE_PAGES, Math.ceil(left / (2 * size * DEPTH))));

  const takeRange = (job: Job): PageRange | null => {
    const lost = job.lost.shift();
    if (lost !== undefined) return lost;
    if (job.pageCount === null || job.next >= job.pageCount) return null;
    const range = {
      first: job.next,
      end: Math.min(job.next + rangePages(job.pageCount - job.next), job.pageCount),
    };
    job.next = range.end;
    // Every page is handed out: no helper will need the bytes any more.
    if (job.next >= job.pageCount) job.bytes = null;
    return range;
  };

  /** Hands the worker a range of the oldest document it has open; false when there is none. */
  const giveRange = (worker: PoolWorker): boolean => {
    for (const job of worker.jobs) {
      const reader = job.readers.get(worker);
      if (reader === undefined || !reader.opened || job.assembling) continue;
      const range = takeRange(job);
      if (range === null) continue;
      reader.ranges.push(range);
      post(worker, { type: "read", id: job.id, ...range });
      return true;
    }
    return false;
  };

  /** The document with the most pages left to read, if a second reading of it by `worker` pays off. */
  const needingHelp = (worker: PoolWorker | null): Job | null => {
    let best: Job | null = null;
    for (const job of jobs.values()) {
      if (job.bytes === null || job.assembling || worker?.jobs.has(job)) continue;
      if (unassigned(job) >= HELP_MIN_PAGES && unassigned(job) > (best === null ? 0 : unassigned(best)))
        best = job;
    }
    return best;
  };

  /** An idle worker opens the document with the most pages left to read, if that pays off. */
  const joinAsHelper = (worker: PoolWorker): void => {
    const best = needingHelp(worker);
    if (best === null || best.bytes === null) return;
    best.readers.set(worker, newReader());
    worker.jobs.add(best);
    post(worker, { type: "open", id: best.id, bytes: best.bytes, ocr: best.options.ocr, role: "helper" });
    releaseBytes(best);
  };

  const idleWorker = (): PoolWorker | null => {
    for (const worker of workers) if (worker.pending === 0) return worker;
    return workers.size < size ? spawn() : null;
  };

  function dispatch(): void {
    if (closed) return;
    while (queue.length > 0) {
      const worker = idleWorker();
      if (worker === null) break;
      const job = queue.shift() as Job;
      job.owner = worker;
      job.readers.set(worker, newReader());
      worker.jobs.add(job);
      const bytes = job.bytes as Uint8Array;
      post(worker, { type: "open", id: job.id, bytes, ocr: job.options.ocr, role: "owner" });
      releaseBytes(job);
    }
    // While a document waits for a worker, the first worker done with its ranges takes it.
    if (queue.length > 0) return;
    for (const worker of workers) {
      let given = true;
      while (worker.pending < DEPTH && given) given = giveRange(worker);
      if (worker.pending === 0) joinAsHelper(worker);
      // An idle worker must not keep the process alive.
      if (worker.pending === 0) worker.thread.unref();
    }
    // A document with many pages left is also read by a worker not started yet.
    while (workers.size < size && needingHelp(null) !== null) joinAsHelper(spawn());
  }

  const progress = (job: Job, reader: Reader): void => {
    job.pagesDone++;
    reader.pagesDone++;
    try {
      job.options.onProgress?.(job.pagesDone, job.pageCount ?? job.pagesDone);
    } catch (error) {
      // A throwing progress callback fails its own job.
      fail(job, error instanceof Error ? error : new Error(String(error)));
    }
  };

  /** The range starting at `first`, no longer in the reader's hands; ranges waiting for OCR answer late. */
  const answered = (reader: Reader, first: number): PageRange | undefined => {
    const index = reader.ranges.findIndex((range) => range.first === first);
    return index === -1 ? undefined : reader.ranges.splice(index, 1)[0];
  };

  const onMessage = (worker: PoolWorker, message: WorkerMessage): void => {
    if (message.type !== "page" && (message.type !== "error" || isAnswered(message.request)))
      worker.pending--;
    const job = jobs.get(message.id);
    const reader = job?.readers.get(worker);
    if (job !== undefined && reader !== undefined) {
      switch (message.type) {
        case "opened":
          reader.opened = true;
          if (worker === job.owner) job.pageCount = message.pageCount;
          else releaseIfDone(job, worker, reader);
          maybeFinish(job);
          break;
        case "read":
          answered(reader, message.first);
          maybeFinish(job);
          break;
        case "page":
          progress(job, reader);
          return;
        case "pages": {
          const range = answered(reader, message.first);
          if (range === undefined) break;
          reader.pagesDone -= range.end - range.first;
          if (job.owner !== null) {
            post(job.owner, { type: "adopt", id: job.id, data: message.data }, [
              message.data.buffer as ArrayBuffer,
            ]);
          }
          releaseIfDone(job, worker, reader);
          maybeFinish(job);
          break;
        }
        case "result":
          if (settle(job)) {
            try {
              job.resolve(decodeExtraction(message.data));
            } catch (error) {
              job.reject(error instanceof Error ? error : new Error(String(error)));
            }
          }
          break;
        case "error":
          // A helper's failure costs only its ranges; the owner's fails the document.
          if (worker === job.owner) fail(job, deserializeError(message.error));
          else {
            leave(job, worker, reader);
            // No second attempt: the document stays with the workers it has.
            job.bytes = null;
            maybeFinish(job);
          }
          break;
      }
    }
    dispatch();
  };

  const onExit = (worker: PoolWorker, code: number): void => {
    workers.delete(worker);
    track(removeThreadScratch(worker.threadId));
    for (const job of [...worker.jobs]) {
      const reader = job.readers.get(worker);
      if (closed) fail(job, closedError());
      else if (worker === job.owner) {
        const detail = worker.crash?.message ?? `exit code ${code}`;
        fail(
          job,
          new Error(`The PDF extraction worker stopped unexpectedly (${detail}).`, { cause: worker.crash }),
        );
      } else if (reader !== undefined) {
        // The ranges a helper had not answered die with it; the workers still on the document read them again.
        leave(job, worker, reader);
        maybeFinish(job);
      }
    }
    dispatch();
  };

  function spawn(): PoolWorker {
    const thread = new Worker(workerUrl, {
      // V8's default young generation let two workers reading octave.pdf hold ~150 MB more for little speed.
      resourceLimits: { maxOldGenerationSizeMb: maxHeapMb, maxYoungGenerationSizeMb: 32 },
    });
    const worker: PoolWorker = {
      thread,
      threadId: thread.threadId,
      pending: 0,
      jobs: new Set(),
      crash: null,
    };
    thread.on("message", (message: WorkerMessage) => onMessage(worker, message));
    thread.on("error", (error) => {
      worker.crash = error;
    });
    thread.on("exit", (code) => onExit(worker, code));
    thread.unref();
    workers.add(worker);
    return worker;
  }

  return {
    extract(bytes, extractOptions) {
      if (closed) return Promise.reject(closedError());
      return new Promise<PdfExtraction>((resolve, reject) => {
        const job: Job = {
          id: nextId++,
          // Posting a view would copy its whole underlying buffer into every worker.
          bytes:
            bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice(),
          options: extractOptions,
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
        jobs.set(job.id, job);
        queue.push(job);
        dispatch();
      });
    },
    async close() {
      closed = true;
      queue.length = 0;
      for (const job of [...jobs.values()]) fail(job, closedError());
      const stopping = [...workers];
      await Promise.all(stopping.map((worker) => worker.thread.terminate()));
      for (const worker of stopping) track(removeThreadScratch(worker.threadId));
      await Promise.all(cleanups);
      if (cleanupError !== null) throw cleanupError;
    },
  };
}
