/**
 * The life of one worker thread of the PDF extractor pool: started with a heap limit, counted busy while
 * requests wait for an answer, let go of while idle, and stopped, with the OCR scratch it may leave behind.
 */
import { Worker } from "node:worker_threads";
import { removeThreadScratch } from "../ocr-scratch.ts";
import { isAnswered, type WorkerMessage, type WorkerRequest } from "../worker-protocol.ts";
import type { ScratchCleanups } from "./scratch-cleanups.ts";
import type { PoolWorker } from "./state.ts";

export interface ThreadSettings {
  workerUrl: URL;
  maxHeapMb: number;
}

export interface WorkerEvents {
  message(worker: PoolWorker, message: WorkerMessage): void;
  exit(worker: PoolWorker, code: number): void;
}

export function startWorker(settings: ThreadSettings, events: WorkerEvents): PoolWorker {
  const thread = new Worker(settings.workerUrl, {
    // V8's default young generation let two workers reading octave.pdf hold ~150 MB more for little speed.
    resourceLimits: { maxOldGenerationSizeMb: settings.maxHeapMb, maxYoungGenerationSizeMb: 32 },
  });
  const worker: PoolWorker = {
    thread,
    threadId: thread.threadId,
    pending: 0,
    jobs: new Set(),
    crash: null,
  };
  thread.on("message", (message: WorkerMessage) => events.message(worker, message));
  thread.on("error", (error) => {
    worker.crash = error;
  });
  thread.on("exit", (code) => events.exit(worker, code));
  thread.unref();
  return worker;
}

export function post(worker: PoolWorker, request: WorkerRequest, transfer: ArrayBuffer[] = []): void {
  if (isAnswered(request.type)) worker.pending++;
  worker.thread.ref();
  worker.thread.postMessage(request, transfer);
}

/** Counts the request a message answers; progress answers none, nor does the error of an unanswered one. */
export function countAnswer(worker: PoolWorker, message: WorkerMessage): void {
  if (message.type !== "page" && (message.type !== "error" || isAnswered(message.request))) worker.pending--;
}

/** An idle worker must not keep the process alive. */
export function unrefIfIdle(worker: PoolWorker): void {
  if (worker.pending === 0) worker.thread.unref();
}

/** Why the documents a thread owned failed when it exited without being asked to. */
export function stoppedError(worker: PoolWorker, code: number): Error {
  const detail = worker.crash?.message ?? `exit code ${code}`;
  return new Error(`The PDF extraction worker stopped unexpectedly (${detail}).`, { cause: worker.crash });
}

/** Terminates the threads and removes the OCR scratch they may have left in the middle of a page. */
export async function stopWorkers(workers: PoolWorker[], scratch: ScratchCleanups): Promise<void> {
  await Promise.all(workers.map((worker) => worker.thread.terminate()));
  for (const worker of workers) scratch.track(removeThreadScratch(worker.threadId));
}
