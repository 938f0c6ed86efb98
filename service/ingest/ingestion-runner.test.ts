import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBlobStore } from "../blobs.ts";
import { createAssistantIndexes } from "../index/assistant-indexes.ts";
import { createLogger } from "../logger.ts";
import { openStore, type Store } from "../store/store.ts";
import { seedPgliteDir } from "../testing/pglite-template.ts";
import { createIngestionRunner } from "./ingestion-runner.ts";
import { createPdfExtractorPool, type PdfExtractorPool } from "./pdf/pool.ts";

/** Text files only, one document at a time, woken by notify() rather than a poll. */
const oneAtATime = { concurrency: 1, ocr: false, pollMs: null } as const;

describe("ingestion runner", () => {
  const dir = mkdtempSync(join(tmpdir(), "cka-runner-"));
  let store: Store;
  let pool: PdfExtractorPool;
  beforeAll(async () => {
    seedPgliteDir(join(dir, "pglite"));
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
      ...oneAtATime,
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
    // The snapshot the document scheduled is written now, not after the store is closed.
    await indexes.flush();
    store.passages.commitDocument = commit;
    expect((await store.documents.get(document.id))?.status).toBe("ready");
    expect(searchableWhenReady).toEqual([true]);
  });

  it("stops when told to while it is looking for a document", async () => {
    const looking = Promise.withResolvers<void>();
    // The database takes its time to answer, as PostgreSQL does, or PGlite behind a transaction.
    const slowStore: Store = {
      ...store,
      documents: {
        ...store.documents,
        claimNext: async (...args) => {
          looking.resolve();
          await new Promise((resolve) => setTimeout(resolve, 50));
          return store.documents.claimNext(...args);
        },
      },
    };
    const logger = createLogger("test");
    const runner = createIngestionRunner({
      store: slowStore,
      blobs: createBlobStore(join(dir, "blobs")),
      indexes: createAssistantIndexes(slowStore, logger),
      pdfPool: pool,
      logger,
      ...oneAtATime,
    });
    runner.start();
    await looking.promise;
    await runner.stop();
  }, 5_000);
});

describe("ingestion runner after the service was killed while reading", () => {
  const dir = mkdtempSync(join(tmpdir(), "cka-runner-crash-"));
  const logger = createLogger("test");
  let store: Store;
  let pool: PdfExtractorPool;
  let blobs: ReturnType<typeof createBlobStore>;
  beforeAll(async () => {
    seedPgliteDir(join(dir, "pglite"));
    store = await openStore({ pgliteDir: join(dir, "pglite") });
    pool = createPdfExtractorPool({ size: 1 });
    blobs = createBlobStore(join(dir, "blobs"));
  });
  afterAll(async () => {
    await pool.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function addNotes(count: number) {
    const assistant = await store.assistants.create("Crashes");
    const datasource = await store.assistants.datasource(assistant.id, "default");
    const documents = [];
    for (let index = 0; index < count; index += 1) {
      const text = `# Note ${index}\n\nKeep ${index} spare fuses in the drawer marked ${index}.\n`;
      const blob = await blobs.write(Readable.from([Buffer.from(text)]), 1_000_000);
      const { document } = await store.documents.add({
        assistantId: assistant.id,
        datasourceId: datasource.id,
        fileName: `note-${index}.md`,
        ...blob,
      });
      documents.push(document);
    }
    return { assistant, documents };
  }

  /** What a SIGKILL leaves behind, as the next start of the service finds it. */
  const kill = () => store.documents.requeueInterrupted();

  async function ingestAll(assistantId: string, readBlob = blobs.read) {
    const indexes = createAssistantIndexes(store, logger);
    const runner = createIngestionRunner({
      store,
      blobs: { ...blobs, read: readBlob },
      indexes,
      pdfPool: pool,
      logger,
      ...oneAtATime,
      concurrency: 3,
    });
    runner.start();
    const settled = (status: string) => status === "ready" || status === "failed";
    for (let attempt = 0; attempt < 200; attempt += 1) {
      const documents = await store.documents.list(assistantId);
      if (documents.every((document) => settled(document.status))) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await runner.stop();
    await indexes.flush();
    return store.documents.list(assistantId);
  }

  it("reads every document to the end after three kills while several were being read", async () => {
    const { assistant, documents } = await addNotes(2);
    for (let kills = 0; kills < 3; kills += 1) {
      for (const _ of documents) await store.documents.claimNext({ othersInFlight: true });
      await kill();
    }
    const after = await ingestAll(assistant.id);
    expect(after.map((document) => [document.fileName, document.status, document.error])).toEqual([
      ["note-0.md", "ready", null],
      ["note-1.md", "ready", null],
    ]);
  });

  it("reads documents cut off by a kill one at a time, so a later crash has one suspect", async () => {
    const { assistant, documents } = await addNotes(3);
    for (const _ of documents) await store.documents.claimNext({ othersInFlight: true });
    await kill();
    let reading = 0;
    let mostAtOnce = 0;
    const after = await ingestAll(assistant.id, async (sha256) => {
      reading += 1;
      mostAtOnce = Math.max(mostAtOnce, reading);
      await new Promise((resolve) => setTimeout(resolve, 30));
      reading -= 1;
      return blobs.read(sha256);
    });
    expect(after.map((document) => document.status)).toEqual(["ready", "ready", "ready"]);
    expect(mostAtOnce).toBe(1);
  });

  it("fails a document only after the service died three times while reading it alone", async () => {
    const { assistant, documents } = await addNotes(2);
    const [suspect] = documents;
    for (const _ of documents) await store.documents.claimNext({ othersInFlight: true });
    await kill();
    for (let kills = 0; kills < 3; kills += 1) {
      expect((await store.documents.claimNext())?.id).toBe(suspect?.id);
      await kill();
    }
    const after = await ingestAll(assistant.id);
    expect(after.map((document) => [document.fileName, document.status, document.error])).toEqual([
      [
        "note-0.md",
        "failed",
        "The service stopped 3 times while reading only this file; it may be malformed.",
      ],
      ["note-1.md", "ready", null],
    ]);
  });
});
