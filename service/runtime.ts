/** Everything a running service owns (storage, blobs, indexes, workers), opened in order and closed in reverse. */
import { mkdirSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { createBlobStore } from "./blobs.ts";
import type { ServiceConfig } from "./config.ts";
import { acquireDataLock } from "./data-lock.ts";
import { createAssistantIndexes } from "./index/assistant-indexes.ts";
import { createIngestionRunner } from "./ingest/ingestion-runner.ts";
import { createPdfExtractorPool } from "./ingest/pdf/pool.ts";
import type { Logger } from "./logger.ts";
import { openStore } from "./store/store.ts";

export async function openRuntime(config: ServiceConfig, logger: Logger) {
  mkdirSync(config.dataDir, { recursive: true });
  const releaseLock = acquireDataLock(config.dataDir);
  try {
    const store = await openStore({
      databaseUrl: config.databaseUrl,
      pgliteDir: join(config.dataDir, "pglite"),
    });
    const blobs = createBlobStore(join(config.dataDir, "blobs"));
    const indexes = createAssistantIndexes(store, logger);
    const workers = config.ingestWorkers ?? availableParallelism();
    const pdfPool = createPdfExtractorPool({ size: workers });
    const ingestion = createIngestionRunner({
      store,
      blobs,
      indexes,
      pdfPool,
      logger,
      concurrency: workers,
      ocr: config.ocr,
      pollMs: store.engine === "postgres" ? 2000 : null,
    });
    if (store.engine === "pglite") {
      // This process owns the embedded database: whatever was "processing" was cut off by a crash.
      const requeued = await store.documents.requeueInterrupted();
      if (requeued > 0) logger.info("resuming interrupted ingestion", { documents: requeued });
    }
    ingestion.start();
    return {
      config,
      store,
      blobs,
      indexes,
      ingestion,
      async close(): Promise<void> {
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
