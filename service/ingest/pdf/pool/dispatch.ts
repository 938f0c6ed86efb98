/**
 * Which worker reads what: a waiting document goes to an idle worker (its owner), a worker gets ranges of
 * the documents it has open, and a worker with nothing to do opens the document with the most pages left
 * (as a helper) when a second reading of it pays off.
 */
import { DEPTH, RANGE_PAGES, takeRange, unassigned } from "./page-ranges.ts";
import { type Job, newReader, type PoolState, type PoolWorker } from "./state.ts";
import { post, unrefIfIdle } from "./worker-thread.ts";

/** A helper opens a document again and sends its pages over: worth it only for this many unread pages. */
const HELP_MIN_PAGES = 3 * RANGE_PAGES;

/** Once every worker has its own copy, no helper can join any more: the caller's bytes are let go. */
function releaseBytes(state: PoolState, job: Job): void {
  if (job.readers.size >= state.size) job.bytes = null;
}

function openDocument(
  state: PoolState,
  worker: PoolWorker,
  job: Job,
  bytes: Uint8Array,
  role: "owner" | "helper",
): void {
  job.readers.set(worker, newReader());
  worker.jobs.add(job);
  post(worker, { type: "open", id: job.id, bytes, ocr: job.options.ocr, role });
  releaseBytes(state, job);
}

/** Hands the worker a range of the oldest document it has open; false when there is none. */
function giveRange(state: PoolState, worker: PoolWorker): boolean {
  for (const job of worker.jobs) {
    const reader = job.readers.get(worker);
    if (reader === undefined || !reader.opened || job.assembling) continue;
    const range = takeRange(job, state.size);
    if (range === null) continue;
    reader.ranges.push(range);
    post(worker, { type: "read", id: job.id, ...range });
    return true;
  }
  return false;
}

/** The document with the most pages left to read, if a second reading of it by `worker` pays off. */
function needingHelp(state: PoolState, worker: PoolWorker | null): Job | null {
  let best: Job | null = null;
  for (const job of state.jobs.values()) {
    if (job.bytes === null || job.assembling || worker?.jobs.has(job)) continue;
    if (unassigned(job) >= HELP_MIN_PAGES && unassigned(job) > (best === null ? 0 : unassigned(best)))
      best = job;
  }
  return best;
}

/** An idle worker opens the document with the most pages left to read, if that pays off. */
function joinAsHelper(state: PoolState, worker: PoolWorker): void {
  const best = needingHelp(state, worker);
  if (best === null || best.bytes === null) return;
  openDocument(state, worker, best, best.bytes, "helper");
}

function idleWorker(state: PoolState): PoolWorker | null {
  for (const worker of state.workers) if (worker.pending === 0) return worker;
  return state.workers.size < state.size ? state.spawn() : null;
}

/** Waiting documents go to idle workers, oldest first; false while one still waits. */
function assignOwners(state: PoolState): boolean {
  while (state.queue.length > 0) {
    const worker = idleWorker(state);
    if (worker === null) return false;
    const job = state.queue.shift() as Job;
    job.owner = worker;
    openDocument(state, worker, job, job.bytes as Uint8Array, "owner");
  }
  return true;
}

/** Fills the worker's requests up to `DEPTH` with ranges, or has it help with another document. */
function keepBusy(state: PoolState, worker: PoolWorker): void {
  let given = true;
  while (worker.pending < DEPTH && given) given = giveRange(state, worker);
  if (worker.pending === 0) joinAsHelper(state, worker);
  unrefIfIdle(worker);
}

/** Hands out whatever there is to do; called whenever a document comes or a worker answers or exits. */
export function dispatch(state: PoolState): void {
  if (state.closed) return;
  // While a document waits for a worker, the first worker done with its ranges takes it.
  if (!assignOwners(state)) return;
  for (const worker of state.workers) keepBusy(state, worker);
  // A document with many pages left is also read by a worker not started yet.
  while (state.workers.size < state.size && needingHelp(state, null) !== null)
    joinAsHelper(state, state.spawn());
}
