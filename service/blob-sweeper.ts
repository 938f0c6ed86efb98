/**
 * Removes stored files that no document refers to any more: those of deleted documents and assistants, and
 * staging files of uploads cut off by a crash. Files are shared by content, so one is removed only when no
 * document of any assistant has its hash; and only once it has not been written for a while, because an
 * upload writes its file before it records its document (milliseconds later, in this or another process).
 */
import type { BlobStore } from "./blobs.ts";
import type { Logger } from "./logger.ts";

/** A file written this recently may belong to an upload whose document is not recorded yet. */
export const blobGraceMs = 10 * 60_000;
const sweepEveryMs = 10 * 60_000;
/** After a deletion, a sweep this soon: a burst of deletions costs one listing of the files. */
const afterDeletionMs = 1000;

export interface BlobSweeperOptions {
  blobs: Pick<BlobStore, "files" | "remove">;
  /** Hashes of the files that documents still refer to. */
  fileHashes(): Promise<ReadonlySet<string>>;
  logger: Logger;
}

export interface SweepOutcome {
  files: number;
  bytes: number;
}

/** One pass: removes the files no document refers to that were last written before `now - blobGraceMs`. */
export async function sweepBlobs(
  options: Pick<BlobSweeperOptions, "blobs" | "fileHashes">,
  now = Date.now(),
): Promise<SweepOutcome> {
  // Hashes are read after the files are listed: a document recorded meanwhile still keeps its file.
  const files = await options.blobs.files();
  const needed = await options.fileHashes();
  const outcome: SweepOutcome = { files: 0, bytes: 0 };
  for (const file of files) {
    if (now - file.modifiedMs < blobGraceMs) continue;
    if (file.sha256 !== null && needed.has(file.sha256)) continue;
    await options.blobs.remove(file);
    outcome.files++;
    outcome.bytes += file.bytes;
  }
  return outcome;
}

export function createBlobSweeper(options: BlobSweeperOptions) {
  let running: Promise<void> | null = null;
  let again = false;
  let soonTimer: NodeJS.Timeout | null = null;
  let periodic: NodeJS.Timeout | null = null;
  let stopped = false;

  const run = async (): Promise<void> => {
    try {
      const { files, bytes } = await sweepBlobs(options);
      if (files > 0) options.logger.info("removed files no document refers to", { files, bytes });
    } catch (error) {
      options.logger.error("removing unreferenced files failed", { error: String(error) });
    }
  };

  /** Sweeps now, or once more after the sweep in progress (which may have listed the files too early). */
  const sweep = (): void => {
    if (stopped) return;
    if (running !== null) {
      again = true;
      return;
    }
    running = run().finally(() => {
      running = null;
      if (again) {
        again = false;
        sweep();
      }
    });
  };

  /** A document or assistant was deleted: its files go within seconds, unless written in the last minutes. */
  const soon = (): void => {
    if (stopped || soonTimer !== null) return;
    soonTimer = setTimeout(() => {
      soonTimer = null;
      sweep();
    }, afterDeletionMs);
    soonTimer.unref();
  };

  return {
    start(): void {
      periodic = setInterval(sweep, sweepEveryMs);
      periodic.unref();
      // What a crash left behind (staging files, files of documents deleted just before it) goes soon after start.
      soon();
    },
    soon,
    async stop(): Promise<void> {
      stopped = true;
      if (soonTimer !== null) clearTimeout(soonTimer);
      if (periodic !== null) clearInterval(periodic);
      await running;
    },
  };
}

export type BlobSweeper = ReturnType<typeof createBlobSweeper>;
