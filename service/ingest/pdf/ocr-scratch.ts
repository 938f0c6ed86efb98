/**
 * Temp folders for OCR renders, named after the owning process and thread so that whoever
 * outlives a killed worker (the pool) or a killed process (the next pool) can remove them.
 */
import { mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { threadId } from "node:worker_threads";

const PREFIX = "cited-ocr-";
const OWNED = /^cited-ocr-(\d+)-(\d+)-/;

export function createScratchFolder(): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), `${PREFIX}${process.pid}-${threadId}-`));
}

async function removeMatching(keep: (pid: number, thread: number) => boolean): Promise<void> {
  const names = await readdir(os.tmpdir());
  const doomed = names.filter((name) => {
    const owner = OWNED.exec(name);
    return owner !== null && !keep(Number(owner[1]), Number(owner[2]));
  });
  await Promise.all(doomed.map((name) => rm(path.join(os.tmpdir(), name), { recursive: true, force: true })));
}

/** Removes what a worker thread of this process left behind (it was terminated or crashed mid-OCR). */
export function removeThreadScratch(workerThreadId: number): Promise<void> {
  return removeMatching((pid, thread) => !(pid === process.pid && thread === workerThreadId));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Removes folders of processes that no longer exist (killed before they could clean up). */
export function removeStaleScratch(): Promise<void> {
  return removeMatching((pid) => pid === process.pid || isAlive(pid));
}
