/** Everything a running service owns (storage, blobs, indexes, workers), opened in order and closed in reverse. */
import { mkdirSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { createBlobSweeper } from "./blob-sweeper.ts";
import { createBlobStore } from "./blobs.ts";
import type { ServiceConfig } from "./config.ts";
import { acquireDataLock } from "./data-lock.ts";
import { startEmbedding } from "./embedding/embedding-runtime.ts";
import { createSemanticIndexer } from "./embedding/semantic-indexer.ts";
import { createAssistantIndexes } from "./index/assistant-indexes.ts";
import { createIngestionRunner } from "./ingest/ingestion-runner.ts";
import { createPdfExtractorPool } from "./ingest/pdf/pool.ts";
import type { Logger } from "./logger.ts";
import { openChangeFeed } from "./store/change-feed.ts";
import { openStore } from "./store/store.ts";

export async function openRuntime(config: ServiceConfig, logger: Logger) {
  mkdirSync(config.dataDir, { recursive: true });
  // PGlite lives in the data folder and allows one owner; with PostgreSQL, processes may share the folder's blobs.
  const releaseLock = config.databaseUrl ? () => undefined : acquireDataLock(config.dataDir);
  try {
    const store = await openStore({
      databaseUrl: config.databaseUrl,
      pgliteDir: join(config.dataDir, "pglite"),
    });
    const blobs = createBlobStore(join(config.dataDir, "blobs"));
    const embedding = startEmbedding(
      config.dataDir,
      { ...config.embedding, remote: config.remote.embeddings },
      logger,
    );
    const indexes = createAssistantIndexes(store, logger, { vectors: () => embedding.vectors() });
    const workers = config.ingestWorkers ?? availableParallelism();
    const pdfPool = createPdfExtractorPool({ size: workers });
    const ingestion = createIngestionRunner({
      store,
      blobs,
      indexes,
      pdfPool,
      logger,
      // PGlite: one document more than workers, so the next is read while one is committed on this thread. Processes
      // sharing PostgreSQL claim no more than they read, leaving the rest to an idle peer.
      concurrency: store.engine === "pglite" ? workers + 1 : workers,
      ocr: config.ocr,
      pollMs: store.engine === "postgres" ? 2000 : null,
      leaseSeconds: config.ingestLeaseSeconds,
    });
    if (store.engine === "pglite") {
      // This process owns the embedded database: whatever was "processing" was cut off by a crash.
      const requeued = await store.documents.requeueInterrupted();
      if (requeued > 0) logger.info("resuming interrupted ingestion", { documents: requeued });
    }
    // Other processes sharing PostgreSQL change documents too: their changes reach this index and its waiters.
    const feed = config.databaseUrl
      ? await openChangeFeed(
          config.databaseUrl,
          {
            async onChange(change) {
              store.documentChanges.notify();
              if (change.status === "queued") ingestion.notify();
              if (change.status === "deleted" && change.document)
                store.passages.forgetDocument(change.document);
              await indexes.applyChange(change);
            },
            async onListening(reconnected) {
              if (!reconnected) return;
              store.documentChanges.notify();
              ingestion.notify();
              await indexes.catchUp();
            },
          },
          logger,
        )
      : null;
    ingestion.start();
    const semanticIndexer = embedding.ready.then((model) => {
      if (!model) return null;
      const indexer = createSemanticIndexer({
        store,
        indexes,
        embedder: model,
        logger,
        ingesting: () => ingestion.reading > 0,
        ...(store.engine === "postgres" ? { pollMs: 2000 } : {}),
      });
      indexer.start();
      return indexer;
    });
    const blobSweeper = createBlobSweeper({ blobs, fileHashes: () => store.documents.fileHashes(), logger });
    blobSweeper.start();
    return {
      config,
      store,
      blobs,
      blobSweeper,
      indexes,
      ingestion,
      embedding,
      async close(): Promise<void> {
        await blobSweeper.stop();
        embedding.stopStarting();
        await (await semanticIndexer)?.stop();
        await embedding.close();
        await feed?.close();
        await ingestion.stop();
        await indexes.flush();
        await pdfPool.close();
        await store.close();
        releaseLock();
      },
    };
  } catch (error) {
    releaseLock();
    throw error;
  }
}

export type Runtime = Awaited<ReturnType<typeof openRuntime>>;
