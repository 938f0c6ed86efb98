/**
 * Semantic indexing in a real service: documents are searchable by words first and by meaning once
 * embedded; a SIGKILL mid-way loses no committed batch and leaves one vector row per passage; without
 * a model the service says so and still answers.
 */
import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type AdminClient, createAdminClient } from "../../sdk/admin/index.ts";
import type { DocumentRecord } from "../../sdk/admin/schemas.ts";
import { reduceAnswerText } from "../../sdk/core/index.ts";
import { publicPaths } from "../../sdk/core/service-paths.ts";
import { type DocumentListing, watchListing } from "../cli/admin-client.ts";
import { decodeVectors } from "../index/vector-codec.ts";
import { openPglite } from "../store/sql-client.ts";
import { createStore } from "../store/store.ts";
import { makeManualPdf } from "../testing/manual-pdf.ts";
import { callPublic } from "../testing/public-api-client.ts";
import { rag, testAdminToken, uploadFiles } from "../testing/sharing-area.ts";
import { type SpawnedService, spawnService } from "../testing/spawn-service.ts";
import { testModelFolder } from "./testing/model.ts";

const samplePdf = join(import.meta.dirname, "..", "..", "samples", "sources", "debian-uploads-and-bugs.pdf");
/** None of its words is in the sample PDF; its "Delayed uploads" section answers it. */
const questionByMeaning = "how do I postpone publishing?";
const dimensions = 384;

const semanticEnv = (): Record<string, string> => ({
  CKA_ADMIN_TOKEN: testAdminToken,
  CKA_EMBEDDINGS: "auto",
  CKA_EMBEDDING_MODEL_DIR: testModelFolder(),
  CKA_EMBEDDING_HUB_URL: "off",
});

const services: SpawnedService[] = [];
afterEach(async () => {
  await Promise.all(services.splice(0).map((service) => service.stop("SIGKILL")));
});

async function start(options: Parameters<typeof spawnService>[0]): Promise<SpawnedService> {
  const service = await spawnService(options);
  services.push(service);
  return service;
}

/** Every listing of the assistant's documents, as each change arrives, until `done` holds of one. */
async function watchUntil(
  client: AdminClient,
  assistantId: string,
  done: (document: DocumentRecord) => boolean,
  history: DocumentRecord[] = [],
  timeoutMs = 45_000,
): Promise<DocumentRecord> {
  const deadline = Date.now() + timeoutMs;
  let listing: DocumentListing = { documents: [], etag: null };
  for (;;) {
    listing = await watchListing(client, assistantId, listing, 1);
    const [document] = listing.documents;
    if (document && history.at(-1) !== document) history.push(document);
    if (document && done(document)) return document;
    if (Date.now() > deadline)
      throw new Error(`timed out; last seen: ${JSON.stringify(document)} (${history.length} listings)`);
  }
}

const fullyEmbedded = (document: DocumentRecord) =>
  document.status === "ready" && document.passages_embedded === document.passages;

async function upload(service: SpawnedService, assistantId: string, name: string, bytes: Uint8Array) {
  expect((await uploadFiles(service.url, assistantId, [{ name, bytes }])).status).toBe(202);
}

describe("semantic indexing", () => {
  it("makes a document searchable by words at once, then by meaning as its passages are embedded", async () => {
    const service = await start({ env: semanticEnv() });
    const client = createAdminClient({ baseUrl: service.url, adminToken: testAdminToken });
    const assistant = await client.createAssistant("by meaning");
    const key = (await client.createKey(assistant.id, ["rag"])).key;
    await upload(service, assistant.id, "uploads.pdf", new Uint8Array(await readFile(samplePdf)));

    const history: DocumentRecord[] = [];
    const done = await watchUntil(client, assistant.id, fullyEmbedded, history);
    expect(done.passages).toBeGreaterThan(16); // more than one batch
    // Ready (searchable by words) before its vectors were all written...
    const firstReady = history.find((document) => document.status === "ready")!;
    expect(firstReady.passages_embedded ?? 0).toBeLessThan(done.passages!);
    // ...and the count only ever climbed, never past the passages.
    const counts = history
      .filter((document) => document.status === "ready")
      .map((document) => document.passages_embedded ?? 0);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(Math.max(...counts)).toBe(done.passages);

    expect(await client.status()).toMatchObject({ search: "semantic", embedding_model: expect.any(String) });
    const found = await rag(service.url, key, assistant.id, { query: questionByMeaning, max_results: 3 });
    expect(found.status).toBe(200);
    expect(found.results[0]?.content).toMatch(/DELAYED\/X-day|delayed directory/);
  }, 60_000);

  it("resumes embedding after a SIGKILL mid-way, keeping what was committed, one vector row per passage", async () => {
    const first = await start({ env: semanticEnv() });
    const client = createAdminClient({ baseUrl: first.url, adminToken: testAdminToken });
    const assistant = await client.createAssistant("crash");
    // ~120 passages: eight batches, several seconds of embedding.
    await upload(first, assistant.id, "manual.pdf", makeManualPdf(40));

    const atKill = await watchUntil(
      client,
      assistant.id,
      (document) =>
        document.status === "ready" &&
        (document.passages_embedded ?? 0) > 0 &&
        (document.passages_embedded ?? 0) < document.passages! - 16,
    );
    await first.stop("SIGKILL");
    const embeddedAtKill = atKill.passages_embedded!;

    const second = await start({ dataDir: first.dataDir, env: semanticEnv() });
    const secondClient = createAdminClient({ baseUrl: second.url, adminToken: testAdminToken });
    // Nothing committed was lost, and the rest followed.
    const [resumed] = await secondClient.listDocuments(assistant.id);
    expect(resumed?.passages_embedded).toBeGreaterThanOrEqual(embeddedAtKill);
    const done = await watchUntil(secondClient, assistant.id, fullyEmbedded);
    expect(done.id).toBe(atKill.id);
    expect(done.passages).toBe(atKill.passages);
    const status = await secondClient.status();
    expect(status.search).toBe("semantic");
    expect(await second.stop("SIGTERM")).toBe(0);

    // What the store holds: one row per passage, each of the model in force and of its own document,
    // each with the passage's vector and one per sentence.
    const database = await openPglite(join(first.dataDir, "pglite"));
    const store = createStore(database);
    try {
      const passages = await store.passages.ofDocuments([done.id]);
      expect(passages).toHaveLength(done.passages!);
      const rows = await database.query<{
        passage_id: string;
        document_id: string;
        model: string;
        vectors: Uint8Array;
      }>("select passage_id, document_id, model, vectors from passage_vectors");
      expect(rows.map((row) => row.passage_id).sort()).toEqual(passages.map((passage) => passage.id).sort());
      const byId = new Map(passages.map((passage) => [passage.id, passage]));
      for (const row of rows) {
        const passage = byId.get(row.passage_id)!;
        expect(row.model).toBe(status.embedding_model);
        expect(row.document_id).toBe(passage.documentId);
        expect(decodeVectors(row.vectors, dimensions)).toHaveLength(
          1 + Math.max(passage.sentences.length, 1),
        );
      }
      expect(await store.passageVectors.missing(done.id, status.embedding_model!)).toEqual([]);
      expect(await store.passageVectors.nextDocument(status.embedding_model!)).toBeNull();
    } finally {
      await store.close();
    }
    console.log(
      `semantic indexing crash: killed at ${embeddedAtKill}/${atKill.passages} passages embedded, ` +
        `${resumed?.passages_embedded} listed after the restart`,
    );
  }, 90_000);

  it("says it answers by words only, and why, when embeddings are off; asks are still answered", async () => {
    const service = await start({ env: { CKA_ADMIN_TOKEN: testAdminToken, CKA_EMBEDDINGS: "off" } });
    const client = createAdminClient({ baseUrl: service.url, adminToken: testAdminToken });
    const status = await client.status();
    expect(status.search).toBe("lexical");
    expect(status.embedding_model).toBeUndefined();
    expect(status.detail).toMatch(/CKA_EMBEDDINGS=off/);

    const assistant = await client.createAssistant("words only");
    const key = (await client.createKey(assistant.id, ["ask", "rag"])).key;
    await upload(service, assistant.id, "uploads.pdf", new Uint8Array(await readFile(samplePdf)));
    const ready = await watchUntil(client, assistant.id, (document) => document.status === "ready");
    expect(ready.passages_embedded).toBeUndefined();

    const response = await callPublic(service.url, {
      path: publicPaths.ask(assistant.id, randomUUID()),
      key,
      body: {
        id_user: "user-1",
        message: "For how many days at most can an upload wait in the DELAYED queue?",
      },
    });
    expect(response.status).toBe(200);
    const answer = reduceAnswerText(await response.text());
    expect(answer).toMatchObject({ phase: "done", refusal: false });
    expect(answer.text).toMatch(/15/);
    expect(
      Object.values(answer.references).flatMap((reference) =>
        reference.kind === "pdf_highlight" ? [reference.page_index] : [],
      ),
    ).toContain(0);

    // What only meaning finds stays unfound.
    const found = await rag(service.url, key, assistant.id, { query: questionByMeaning, max_results: 3 });
    expect(found.status).toBe(200);
    expect(found.results.map((result) => result.content).join(" ")).not.toMatch(/DELAYED\/X-day/);
  }, 60_000);
});
