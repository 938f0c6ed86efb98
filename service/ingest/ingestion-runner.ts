/** Background ingestion: claims queued documents, reads them in worker threads, commits all passages at once. */
import type { BlobStore } from "../blobs.ts";
import { turnOfEventLoop } from "../event-loop.ts";
import type { AssistantIndexes } from "../index/assistant-indexes.ts";
import { toIndexedPassage } from "../index/assistant-indexes.ts";
import type { Logger } from "../logger.ts";
import { leaseSeconds as defaultLeaseSeconds, type StoredDocument } from "../store/documents.ts";
import type { Store } from "../store/store.ts";
import { buildPassages } from "./build-passages.ts";
import type { PdfExtractorPool } from "./pdf/pool.ts";
import { readSource } from "./read-source.ts";
import { PdfReadError, SourceReadError } from "./types.ts";

export interface IngestionOptions {
  store: Store;
  blobs: BlobStore;
  indexes: AssistantIndexes;
  pdfPool: PdfExtractorPool;
  logger: Logger;
  concurrency: number;
  ocr: boolean;
  /** PostgreSQL may be shared by several service processes: then look for work now and then, not only when told. */
  pollMs: number | null;
  /** Seconds a claimed document stays this process's without a renewal (the lease is renewed three times as often). */
  leaseSeconds?: number;
}

/**
 * A document is blamed for a crash of the service only with evidence: its reading is isolated first. A PDF that
 * kills its extraction worker fails at once (see pdf/pool.ts); a crash of the whole process (SIGKILL, the OOM
 * killer, a restart) names no culprit, so every document it cut off is read again, alone (see claimNext). It
 * fails only after the service died this many times while reading it and nothing else.
 */
const maxLoneCrashes = 3;
const progressEveryMs = 500;

export function createIngestionRunner(options: IngestionOptions) {
  const { store, logger } = options;
  const leaseSeconds = options.leaseSeconds ?? defaultLeaseSeconds;
  const inFlight = new Set<Promise<void>>();
  let running = false;
  let wake: (() => void) | null = null;
  let loop: Promise<void> | null = null;

  async function ingest(document: StoredDocument): Promise<void> {
    if (document.loneCrashes >= maxLoneCrashes) {
      await store.documents.fail(
        document.id,
        `The service stopped ${maxLoneCrashes} times while reading only this file; it may be malformed.`,
      );
      return;
    }
    logger.info("ingesting", { documentId: document.id, readAlone: document.readAlone });
    const renew = setInterval(
      () => {
        store.documents
          .renewLease(document.id, leaseSeconds)
          .catch((error: unknown) => logger.warn("lease renewal failed", { error: String(error) }));
      },
      (leaseSeconds * 1000) / 3,
    );
    let lastProgress = 0;
    const started = performance.now();
    try {
      const [bytes, datasource] = await Promise.all([
        options.blobs.read(document.sha256),
        store.assistants.datasource(document.assistantId, document.datasourceId),
      ]);
      const content = await readSource(document.fileName, bytes, {
        pdfPool: options.pdfPool,
        ocr: options.ocr,
        datasourceUrl: datasource.url,
        onProgress: (pagesDone, pages) => {
          const now = Date.now();
          if (now - lastProgress < progressEveryMs && pagesDone < pages) return;
          lastProgress = now;
          store.documents
            .progress(document.id, pagesDone, pages)
            .catch((error: unknown) => logger.warn("progress update failed", { error: String(error) }));
        },
      });
      // Each step below holds this thread for up to ~100 ms on a large document; requests go first between them
      // (those that need the database wait while the commit's transaction is open).
      await turnOfEventLoop();
      const passages = buildPassages(content.blocks, {
        assistantId: document.assistantId,
        datasourceId: document.datasourceId,
        documentId: document.id,
        sha256: document.sha256,
        title: content.title?.trim() || document.fileName,
      });
      if (passages.length === 0) {
        await store.documents.fail(document.id, "No text could be read from the file.");
        return;
      }
      await turnOfEventLoop();
      // Indexed first, so the document is searchable the moment it reads ready; until the commit its
      // hits are not served, because only passages of ready documents are ever read back.
      await options.indexes.addDocument(document.assistantId, document.id, passages.map(toIndexedPassage));
      await turnOfEventLoop();
      let committed = false;
      try {
        committed = await store.passages.commitDocument(document.id, passages, {
          title: content.title,
          pages: content.pages,
          warnings: content.warnings,
        });
      } finally {
        if (!committed) await options.indexes.removeDocument(document.assistantId, document.id);
      }
      if (committed) {
        logger.info("document ready", {
          documentId: document.id,
          pages: content.pages,
          passages: passages.length,
          ms: Math.round(performance.now() - started),
        });
      }
    } catch (error) {
      const known = error instanceof PdfReadError || error instanceof SourceReadError;
      if (!known)
        logger.error("ingestion failed", {
          documentId: document.id,
          error: String(error),
          stack: (error as Error).stack,
        });
      const reason = known ? error.message : "The file could not be read; it may be damaged.";
      await store.documents.fail(document.id, reason);
    } finally {
      clearInterval(renew);
    }
  }

  /** Until told of new work, the next poll, or (when some are being read) one of them finishing. */
  async function idle(): Promise<void> {
    // stop() may have come while the loop was looking for work: nobody would wake this wait.
    if (!running) return;
    await new Promise<void>((resolve) => {
      wake = resolve;
      if (options.pollMs !== null) setTimeout(resolve, options.pollMs).unref();
      if (inFlight.size > 0) void Promise.race(inFlight).then(() => resolve());
    });
    wake = null;
  }

  async function run(): Promise<void> {
    let readingAlone = false;
    while (running) {
      if (inFlight.size >= options.concurrency || readingAlone) {
        await Promise.race(inFlight);
        continue;
      }
      const document = await store.documents
        .claimNext({ othersInFlight: inFlight.size > 0, leaseSeconds })
        .catch((error: unknown) => {
          // The database may be restarting: keep the loop, look again after the pause below.
          logger.warn("claiming a document failed", { error: String(error) });
          return null;
        });
      if (!document) {
        await idle();
        continue;
      }
      readingAlone = document.readAlone;
      const job = ingest(document).catch((error: unknown) =>
        logger.error("could not record an ingestion outcome", {
          documentId: document.id,
          error: String(error),
        }),
      );
      inFlight.add(job);
      void job.finally(() => {
        inFlight.delete(job);
        if (document.readAlone) readingAlone = false;
      });
    }
  }

  return {
    start(): void {
      if (running) return;
      running = true;
      loop = run().catch((error: unknown) =>
        logger.error("ingestion loop stopped", { error: String(error) }),
      );
    },
    /** Documents this process is reading now. */
    get reading(): number {
      return inFlight.size;
    },
    /** New documents were queued: look now rather than at the next poll. */
    notify(): void {
      wake?.();
    },
    /** Stops claiming and waits for documents already being read. */
    async stop(): Promise<void> {
      running = false;
      wake?.();
      await loop;
      await Promise.all(inFlight);
    },
  };
}

export type IngestionRunner = ReturnType<typeof createIngestionRunner>;
