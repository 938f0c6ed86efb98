/** Ingestion killed mid-way (SIGKILL): a restart finishes every document exactly once, fully indexed, without re-reading. */
import { readFile, rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AdminClient, createAdminClient } from "../../sdk/admin/index.ts";
import type { DocumentRecord } from "../../sdk/admin/schemas.ts";
import { rag, settled, testAdminToken, uploadFiles, waitForDocuments } from "../testing/sharing-area.ts";
import { type SpawnedService, spawnService } from "../testing/spawn-service.ts";
import { type EvalPdf, evalPdfPath } from "./pdf/testing/pdf-fixtures.ts";

/** Each eval PDF with a query only it answers well. */
const pdfs: Array<{ name: EvalPdf; query: string }> = [
  { name: "debian-reference.en.pdf", query: "Osamu Aoki Debian Reference" },
  { name: "developers-reference.pdf", query: "going on vacation gracefully" },
  { name: "gnuplot.pdf", query: "gnuplot splot surface palette" },
];
/** The same files twice, in two datasources, so ingestion lasts long enough to be cut off. */
const datasources = ["first", "second"];

interface LogLine {
  message: string;
  [field: string]: unknown;
}

function logLines(service: SpawnedService): LogLine[] {
  return service
    .logs()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as LogLine);
}

const serviceEnv = { CKA_ADMIN_TOKEN: testAdminToken, CKA_LOG: "info" };

async function loadFiles() {
  return Promise.all(
    pdfs.map(async ({ name }) => ({ name, bytes: new Uint8Array(await readFile(evalPdfPath(name))) })),
  );
}

/** Passages per file (by sha256) from a clean ingestion in a service of its own. */
async function cleanIngestion(files: Awaited<ReturnType<typeof loadFiles>>): Promise<Map<string, number>> {
  const service = await spawnService({ env: { CKA_ADMIN_TOKEN: testAdminToken, CKA_INGEST_WORKERS: "1" } });
  try {
    const client = createAdminClient({ baseUrl: service.url, adminToken: testAdminToken });
    const assistant = await client.createAssistant("clean");
    expect((await uploadFiles(service.url, assistant.id, files)).status).toBe(202);
    const documents = await waitForDocuments(client, assistant.id, { timeoutMs: 120_000 });
    return new Map(documents.map((document) => [document.sha256, document.passages ?? -1]));
  } finally {
    await service.stop("SIGKILL");
    await rm(service.dataDir, { recursive: true, force: true });
  }
}

describe("ingestion cut off by SIGKILL", () => {
  let first: SpawnedService;
  let client: AdminClient;
  let files: Awaited<ReturnType<typeof loadFiles>>;
  let clean: Promise<Map<string, number>>;
  const services: SpawnedService[] = [];

  beforeAll(async () => {
    files = await loadFiles();
    first = await spawnService({ env: serviceEnv });
    services.push(first);
    client = createAdminClient({ baseUrl: first.url, adminToken: testAdminToken });
  });
  afterAll(async () => {
    await Promise.all(services.map((service) => service.stop("SIGKILL")));
    await clean?.catch(() => undefined);
    if (first) await rm(first.dataDir, { recursive: true, force: true });
  });

  it("refuses a second cka serve on the same data folder while the first runs", async () => {
    await expect(spawnService({ dataDir: first.dataDir, env: serviceEnv })).rejects.toThrow(
      /data folder .* is in use by process \d+; stop it or use another --data/,
    );
    expect((await fetch(`${first.url}/healthz`)).status).toBe(200);
  });

  it("finishes every document once after a restart, fully indexed, without re-reading ready ones", async () => {
    const assistant = await client.createAssistant("crash");
    const key = (await client.createKey(assistant.id, ["rag"])).key;
    for (const datasource of datasources) {
      expect((await uploadFiles(first.url, assistant.id, files, { datasource })).status).toBe(202);
    }
    // A clean ingestion of the same files, in parallel, to compare passage counts with.
    clean = cleanIngestion(files);
    clean.catch(() => undefined); // awaited below; a failure there is reported there

    // Kill once a document is ready and the index snapshot holding it is written, while others are being read.
    const atKill = await waitForDocuments(client, assistant.id, {
      timeoutMs: 120_000,
      done: (documents) =>
        documents.every(settled) ||
        (logLines(first).some((line) => line.message === "index snapshot saved") &&
          documents.some((document) => document.status === "processing")),
    });
    await first.stop("SIGKILL");
    expect(atKill.filter((document) => document.status === "processing").length).toBeGreaterThan(0);
    const readyAtKill = atKill.filter((document) => document.status === "ready");
    expect(readyAtKill.length).toBeGreaterThan(0);

    const second = await spawnService({ dataDir: first.dataDir, env: serviceEnv });
    services.push(second);
    const secondClient = createAdminClient({ baseUrl: second.url, adminToken: testAdminToken });
    const after = await waitForDocuments(secondClient, assistant.id, { timeoutMs: 120_000 });

    // Nothing duplicated, nothing lost; every document read in full, exactly as a clean ingestion reads it.
    expect(after.map((document) => document.id).sort()).toEqual(atKill.map((document) => document.id).sort());
    const passagesOf = await clean;
    for (const document of after) {
      expect(document.status, document.file_name).toBe("ready");
      expect(document.passages, document.file_name).toBe(passagesOf.get(document.sha256));
      expect(document.pages_done, document.file_name).toBe(document.pages);
    }
    // Documents ready before the kill were not read again.
    for (const before of readyAtKill) {
      const now = after.find((document) => document.id === before.id) as DocumentRecord;
      expect(now.updated_at, before.file_name).toBe(before.updated_at);
    }
    const secondLogs = logLines(second);
    const resumed = secondLogs.find((line) => line.message === "resuming interrupted ingestion");
    expect(resumed?.documents).toBeGreaterThan(0);
    expect(resumed?.documents).toBeLessThanOrEqual(atKill.length - readyAtKill.length);
    expect(secondLogs).toContainEqual(
      expect.objectContaining({ message: "index loaded", fromSnapshot: true }),
    );

    // Every document answers its own query, in each datasource, with no passage twice.
    for (const datasource of datasources) {
      for (const { name, query } of pdfs) {
        const document = after.find((item) => item.datasource === datasource && item.file_name === name)!;
        const found = await rag(second.url, key, assistant.id, {
          query,
          max_results: 20,
          datasource_ids: [document.id_datasource],
        });
        expect(found.status).toBe(200);
        expect(
          found.results.map((result) => result.metadata.id_document),
          `${datasource}/${name}`,
        ).toContain(document.id);
        const contents = found.results.map((result) => `${result.metadata.id_document} ${result.content}`);
        expect(new Set(contents).size).toBe(contents.length);
      }
    }

    // A clean restart loads the index from its snapshot: exactly the committed passages, nothing re-read.
    expect(await second.stop("SIGTERM")).toBe(0);
    const third = await spawnService({ dataDir: first.dataDir, env: serviceEnv });
    services.push(third);
    expect((await rag(third.url, key, assistant.id, { query: "debian" })).results.length).toBeGreaterThan(0);
    const loaded = logLines(third).find((line) => line.message === "index loaded");
    expect(loaded).toMatchObject({
      fromSnapshot: true,
      added: 0,
      removed: 0,
      passages: after.reduce((sum, document) => sum + (document.passages ?? 0), 0),
    });
    expect(logLines(third).map((line) => line.message)).not.toContain("resuming interrupted ingestion");
    const thirdClient = createAdminClient({ baseUrl: third.url, adminToken: testAdminToken });
    expect(await thirdClient.listDocuments(assistant.id)).toEqual(after);
  }, 240_000);
});
