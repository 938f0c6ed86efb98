/**
 * What the pool does when a worker answers or exits: ranges come back, pages go on to the owner, a
 * document is settled, and a helper's failure or crash costs only a second reading of its ranges.
 */
import { removeThreadScratch } from "../ocr-scratch.ts";
import { decodeExtraction, deserializeError, type WorkerMessage } from "../worker-protocol.ts";
import { dispatch } from "./dispatch.ts";
import { fail, leave, maybeFinish, progress, releaseIfDone, settle } from "./documents.ts";
import { answered } from "./page-ranges.ts";
import { closedError, type Job, type PoolState, type PoolWorker, type Reader } from "./state.ts";
import { countAnswer, post, stoppedError } from "./worker-thread.ts";

type Answer<Type extends WorkerMessage["type"]> = Extract<WorkerMessage, { type: Type }>;

interface Context {
  state: PoolState;
  worker: PoolWorker;
  job: Job;
  reader: Reader;
}

function onOpened({ state, worker, job, reader }: Context, message: Answer<"opened">): void {
  reader.opened = true;
  if (worker === job.owner) job.pageCount = message.pageCount;
  else releaseIfDone(state, job, worker, reader);
  maybeFinish(state, job);
}

/** A helper's range: its pages go on to the owner, unread, and no longer count as the helper's. */
function onPages({ state, worker, job, reader }: Context, message: Answer<"pages">): void {
  const range = answered(reader, message.first);
  if (range === undefined) return;
  reader.pagesDone -= range.end - range.first;
  if (job.owner !== null) {
    post(job.owner, { type: "adopt", id: job.id, data: message.data }, [message.data.buffer as ArrayBuffer]);
  }
  releaseIfDone(state, job, worker, reader);
  maybeFinish(state, job);
}

function onResult({ state, job }: Context, message: Answer<"result">): void {
  if (!settle(state, job)) return;
  try {
    job.resolve(decodeExtraction(message.data));
  } catch (error) {
    job.reject(error instanceof Error ? error : new Error(String(error)));
  }
}

/** A helper's failure costs only its ranges; the owner's fails the document. */
function onError({ state, worker, job, reader }: Context, message: Answer<"error">): void {
  if (worker === job.owner) {
    fail(state, job, deserializeError(message.error));
    return;
  }
  leave(state, job, worker, reader);
  // No second attempt: the document stays with the workers it has.
  job.bytes = null;
  maybeFinish(state, job);
}

function onAnswer(context: Context, message: Exclude<WorkerMessage, Answer<"page">>): void {
  switch (message.type) {
    case "opened":
      onOpened(context, message);
      break;
    case "read":
      answered(context.reader, message.first);
      maybeFinish(context.state, context.job);
      break;
    case "pages":
      onPages(context, message);
      break;
    case "result":
      onResult(context, message);
      break;
    case "error":
      onError(context, message);
      break;
  }
}

export function onWorkerMessage(state: PoolState, worker: PoolWorker, message: WorkerMessage): void {
  countAnswer(worker, message);
  const job = state.jobs.get(message.id);
  const reader = job?.readers.get(worker);
  if (job !== undefined && reader !== undefined) {
    if (message.type === "page") {
      // Progress answers no request: there is nothing new to hand out.
      progress(state, job, reader);
      return;
    }
    onAnswer({ state, worker, job, reader }, message);
  }
  dispatch(state);
}

/** The documents of a thread that exited: closed, failed with their owner, or read on without a helper. */
export function onWorkerExit(state: PoolState, worker: PoolWorker, code: number): void {
  state.workers.delete(worker);
  state.scratch.track(removeThreadScratch(worker.threadId));
  for (const job of [...worker.jobs]) {
    const reader = job.readers.get(worker);
    if (state.closed) fail(state, job, closedError());
    else if (worker === job.owner) fail(state, job, stoppedError(worker, code));
    else if (reader !== undefined) {
      // The ranges a helper had not answered die with it; the workers still on the document read them again.
      leave(state, job, worker, reader);
      maybeFinish(state, job);
    }
  }
  dispatch(state);
}
