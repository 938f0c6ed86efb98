import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBlobStore } from "../blobs.ts";
import { createAssistantIndexes } from "../index/assistant-indexes.ts";
import { createLogger } from "../logger.ts";
import { openStore, type Store } from "../store/store.ts";
import { createIngestionRunner } from "./ingestion-runner.ts";
import { createPdfExtractorPool, type PdfExtractorPool } from "./pdf/pool.ts";

describe("ingestion runner", () => {
  const dir = mkdtempSync(join(tmpdir(), "cka-runner-"));
  let store: Store;
  let pool: PdfExtractorPool;
  beforeAll(async () => {
    store = await openStore({ pgliteDir: join(dir, "pglite") });
    pool = createPdfExtractorPool({ size: 1 });
  });
  afterAll(async () => {
    await pool.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("makes a document searchable no later than the moment it is reported ready", async () => {
    const logger = createLogger("test");
    const blobs = createBlobStore(join(dir, "blobs"));
    const indexes = createAssistantIndexes(store, logger);
    const assistant = await store.assistants.create("Runner");
    const datasource = await store.assistants.datasource(assistant.id, "default");
    const text =
      "# Backups\n\nSplit a large archive into pieces with split -b 2000m archive.tar before copying it.\n";
    const blob = await blobs.write(Readable.from([Buffer.from(text)]), 1_000_000);
    const { document } = await store.documents.add({
      assistantId: assistant.id,
      datasourceId: datasource.id,
      fileName: "backups.md",
      ...blob,
    });

    await indexes.get(assistant.id);
    const searchableWhenReady: boolean[] = [];
    const commit = store.passages.commitDocument;
    store.passages.commitDocument = async (...args) => {
      const committed = await commit(...args);
      const hits = (await indexes.get(assistant.id)).search("split archive pieces", { limit: 5 });
      searchableWhenReady.push(hits.length > 0);
      return committed;
    };
    const runner = createIngestionRunner({
      store,
      blobs,
      indexes,
      pdfPool: pool,
      logger,
      concurrency: 1,
      ocr: false,
      pollMs: null,
    });
    runner.start();
    for (
      let attempt = 0;
      attempt < 100 && (await store.documents.get(document.id))?.status !== "ready";
      attempt += 1
    ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await runner.stop();
    store.passages.commitDocument = commit;
    expect((await store.documents.get(document.id))?.status).toBe("ready");
    expect(searchableWhenReady).toEqual([true]);
  });
});
