import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAssistantIndexes } from "../index/assistant-indexes.ts";
import { createLogger } from "../logger.ts";
import { migrate } from "../store/migrate.ts";
import { openPglite, type SqlClient } from "../store/sql-client.ts";
import { createStore, type Store } from "../store/store.ts";
import { temporaryPgliteDir } from "../testing/pglite-template.ts";
import { createSemanticIndexer } from "./semantic-indexer.ts";

/** An embedder that refuses any text holding "unreadable", as a model server refuses an input it cannot take. */
const embedder = {
  modelId: "test-model",
  dimensions: 4,
  async embed(texts: readonly string[]) {
    if (texts.some((text) => text.includes("unreadable"))) throw new Error("the server refused an input");
    return texts.map(() => Float32Array.from([0.5, 0.5, 0.5, 0.5]));
  },
};

describe("the semantic indexer", () => {
  let client: SqlClient;
  let store: Store;
  beforeAll(async () => {
    client = await openPglite(temporaryPgliteDir("cka-indexer-"));
    await migrate(client);
    store = createStore(client);
  });
  afterAll(() => client.close());

  async function readyDocument(assistantId: string, name: string, text: string): Promise<string> {
    const datasource = await store.assistants.datasource(assistantId, "default");
    const { document } = await store.documents.add({
      assistantId,
      datasourceId: datasource.id,
      fileName: name,
      sha256: name,
      bytes: 1,
    });
    await store.documents.claimNext();
    await store.passages.commitDocument(
      document.id,
      [
        {
          id: `psg_${name}`,
          documentId: document.id,
          assistantId,
          datasourceId: datasource.id,
          ordinal: 0,
          kind: "paragraph",
          text,
          heading: "",
          title: name,
          sentences: [{ text, start: 0, end: text.length }],
          evidence: { kind: "paragraph" },
          pageStart: null,
          pageEnd: null,
        },
      ],
      { title: name, pages: null, warnings: [] },
    );
    return document.id;
  }

  it("goes on with the other documents while one keeps failing", async () => {
    const assistant = await store.assistants.create("Manuals");
    await readyDocument(assistant.id, "broken.md", "An unreadable passage.");
    const good = await readyDocument(assistant.id, "good.md", "A passage the model reads.");
    const indexes = createAssistantIndexes(store, createLogger("test"));
    const indexer = createSemanticIndexer({
      store,
      indexes,
      embedder,
      logger: createLogger("test"),
      pollMs: 50,
    });
    indexer.start();
    try {
      const deadline = Date.now() + 5000;
      let embedded: number | null | undefined;
      while (Date.now() < deadline) {
        embedded = (await store.documents.list(assistant.id)).find(
          (document) => document.id === good,
        )?.passagesEmbedded;
        if (embedded === 1) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(embedded).toBe(1);
    } finally {
      await indexer.stop();
    }
  });
});
