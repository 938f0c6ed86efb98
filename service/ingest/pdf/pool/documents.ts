/**
 * A document's course through the pool's workers: a helper leaving it (its unanswered ranges go back),
 * pages counted as read, the owner asked to assemble once every page is read, and the caller's promise
 * settled once, whichever way.
 */
import { unassigned } from "./page-ranges.ts";
import type { Job, PoolState, PoolWorker, Reader } from "./state.ts";
import { post } from "./worker-thread.ts";

/** Forgets the document; false when it was settled already. */
export function settle(state: PoolState, job: Job): boolean {
  if (!state.jobs.has(job.id)) return false;
  state.jobs.delete(job.id);
  for (const worker of job.readers.keys()) worker.jobs.delete(job);
  job.bytes = null;
  return true;
}

/** Rejects the document, once, and has the workers still running let go of it. */
export function fail(state: PoolState, job: Job, error: Error): void {
  const readers = [...job.readers.keys()];
  if (!settle(state, job)) return;
  for (const worker of readers) if (state.workers.has(worker)) post(worker, { type: "drop", id: job.id });
  job.reject(error);
}

/** A helper leaves the document: ranges it had not answered go back to be read by the others. */
export function leave(state: PoolState, job: Job, worker: PoolWorker, reader: Reader): void {
  job.readers.delete(worker);
  worker.jobs.delete(job);
  job.lost.push(...reader.ranges);
  job.pagesDone -= reader.pagesDone;
  if (state.workers.has(worker)) post(worker, { type: "drop", id: job.id });
}

/** A helper with nothing in hand and nothing left to hand out lets go of its copy at once. */
export function releaseIfDone(state: PoolState, job: Job, worker: PoolWorker, reader: Reader): void {
  if (reader.ranges.length === 0 && unassigned(job) === 0) leave(state, job, worker, reader);
}

/** Every page read and with the owner: helpers let go, the owner assembles the document. */
export function maybeFinish(state: PoolState, job: Job): void {
  if (!state.jobs.has(job.id) || job.assembling || job.owner === null || unassigned(job) > 0) return;
  for (const reader of job.readers.values()) if (reader.ranges.length > 0) return;
  for (const [worker, reader] of job.readers) if (worker !== job.owner) leave(state, job, worker, reader);
  job.assembling = true;
  post(job.owner, { type: "assemble", id: job.id });
}

/** One more page read, reported to the caller; a throwing progress callback fails its own document. */
export function progress(state: PoolState, job: Job, reader: Reader): void {
  job.pagesDone++;
  reader.pagesDone++;
  try {
    job.options.onProgress?.(job.pagesDone, job.pageCount ?? job.pagesDone);
  } catch (error) {
    fail(state, job, error instanceof Error ? error : new Error(String(error)));
  }
}
