/** Two service processes on one PostgreSQL behave as one service: changes, rate limits, ingestion, outages. */
import { execFileSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AdminClient, createAdminClient } from "../sdk/admin/index.ts";
import { watchListing } from "./cli/admin-client.ts";
import { evalPdfPath } from "./ingest/pdf/testing/pdf-fixtures.ts";
import { postgresAvailable, startPostgres, type TestPostgres } from "./testing/postgres.ts";
import { rag, testAdminToken, uploadFiles, waitForDocuments } from "./testing/sharing-area.ts";
import { type SpawnedService, spawnService } from "./testing/spawn-service.ts";
import { temporaryDirectory } from "./testing/temporary-directory.ts";

const rateLimit = 60;

interface LogLine {
  message: string;
  [field: string]: unknown;
}

const logLines = (service: SpawnedService): LogLine[] =>
  service
    .logs()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as LogLine);

const loggedFor = (service: SpawnedService, message: string, documentId: string) =>
  logLines(service).filter((line) => line.message === message && line.documentId === documentId);

const evalPdfNames = ["debian-reference.en.pdf", "developers-reference.pdf", "gnuplot.pdf"] as const;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` every `intervalMs` until it holds; returns the milliseconds it took, or throws after `timeoutMs`. */
async function within(timeoutMs: number, check: () => Promise<boolean>, intervalMs = 50): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (await check()) return performance.now() - started;
    if (performance.now() - started > timeoutMs) throw new Error(`not so within ${timeoutMs} ms`);
    await sleep(intervalMs);
  }
}

const textFile = (name: string, text: string) => ({ name, bytes: new TextEncoder().encode(text) });

describe.skipIf(!postgresAvailable)("two service processes on one PostgreSQL", () => {
  let postgres: TestPostgres;
  let first: SpawnedService;
  let second: SpawnedService;
  let admin: AdminClient;
  let env: Record<string, string>;

  beforeAll(async () => {
    postgres = await startPostgres();
    env = {
      DATABASE_URL: postgres.url,
      CKA_ADMIN_TOKEN: testAdminToken,
      CKA_LOG: "info",
      CKA_RATE_LIMIT_PER_MINUTE: String(rateLimit),
      CKA_INGEST_WORKERS: "1",
      CKA_INGEST_LEASE_SECONDS: "3",
    };
    // One data folder (blobs, secrets, slice cache) shared by both, as on one machine or a shared volume.
    const dataDir = temporaryDirectory("cka-scale-");
    first = await spawnService({ dataDir, env });
    second = await spawnService({ dataDir, env });
    admin = createAdminClient({ baseUrl: first.url, adminToken: testAdminToken });
  });
  afterAll(async () => {
    await Promise.all([first?.stop("SIGKILL"), second?.stop("SIGKILL")]);
    postgres?.stop();
  });

  it("answers a held document listing on one process when a document is added through the other", async () => {
    const assistant = await admin.createAssistant("held");
    const secondAdmin = createAdminClient({ baseUrl: second.url, adminToken: testAdminToken });
    const empty = await watchListing(secondAdmin, assistant.id, { documents: [], etag: null }, 0);
    const held = watchListing(secondAdmin, assistant.id, empty, 20);
    const answeredAt = held.then(() => performance.now());
    await sleep(300);
    await uploadFiles(first.url, assistant.id, [textFile("held.txt", "A held listing wakes up.")]);
    const uploadedAt = performance.now();
    const changed = await held;
    expect((await answeredAt) - uploadedAt).toBeLessThan(1000);
    expect(changed.documents.map((document) => document.file_name)).toEqual(["held.txt"]);
  });

  it("finds a document made ready through one process through the other within a second, and not after its deletion", async () => {
    const assistant = await admin.createAssistant("visible");
    const key = (await admin.createKey(assistant.id, ["rag"])).key;
    // Both processes hold the assistant's index before the document exists.
    for (const service of [first, second]) {
      expect((await rag(service.url, key, assistant.id, { query: "zanzibar" })).results).toEqual([]);
    }
    const upload = await uploadFiles(first.url, assistant.id, [
      textFile("spices.txt", "Zanzibar cloves are dried flower buds traded for centuries."),
    ]);
    const [document] = ((await upload.json()) as { documents: Array<{ id: string }> }).documents;
    const documentId = document!.id;
    let ingester: SpawnedService = first;
    await within(20_000, async () => {
      const found = [first, second].find(
        (service) => loggedFor(service, "document ready", documentId).length,
      );
      if (found) ingester = found;
      return found !== undefined;
    });
    const other = ingester === first ? second : first;
    const found = async () =>
      (await rag(other.url, key, assistant.id, { query: "zanzibar cloves" })).results.some(
        (result) => result.metadata.id_document === documentId,
      );
    expect(await within(1000, found)).toBeLessThan(1000);

    expect(
      (
        await fetch(`${ingester.url}/admin/v1/assistants/${assistant.id}/documents/${documentId}`, {
          method: "DELETE",
          headers: { Authorization: `Bearer ${testAdminToken}` },
        })
      ).status,
    ).toBe(204);
    expect(await within(1000, async () => !(await found()))).toBeLessThan(1000);
  });

  it("shares one rate limit per key across both processes", async () => {
    const assistant = await admin.createAssistant("limited");
    const key = (await admin.createKey(assistant.id, ["rag"])).key;
    const statuses: number[] = [];
    for (let turn = 0; turn < rateLimit + 10; turn++) {
      const service = turn % 2 === 0 ? first : second;
      statuses.push((await rag(service.url, key, assistant.id, { query: "anything" })).status);
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(rateLimit);
    expect(statuses.filter((status) => status === 429)).toHaveLength(10);
  });

  it("answers 503 problem details while PostgreSQL is down and recovers when it is back, without a restart", async () => {
    const assistant = await admin.createAssistant("outage");
    // The load spends its key's budget of the minute (its 429s are allowed); the checks after it have their own.
    const loadKey = (await admin.createKey(assistant.id, ["rag"])).key;
    const key = (await admin.createKey(assistant.id, ["rag"])).key;
    const statuses = new Map<number, number>();
    let loading = true;
    const load = (async () => {
      while (loading) {
        for (const service of [first, second]) {
          const response = await fetch(`${service.url}/external/v1/assistants/${assistant.id}/rag`, {
            method: "POST",
            headers: {
              Authorization: `Bearer ${loadKey}`,
              "X-App-Code": "selfserve",
              "Content-Type": "application/json",
            },
            body: JSON.stringify({ query: "outage" }),
            signal: AbortSignal.timeout(10_000),
          });
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          if (response.status === 503) {
            expect(response.headers.get("Content-Type")).toBe("application/problem+json");
            expect(await response.json()).toMatchObject({ status: 503, code: "unavailable" });
          } else await response.body?.cancel();
        }
      }
    })();
    // Settled here, so that a failure of the load while the checks below run is reported by this test
    // (at `await loaded`), never as an unhandled rejection of another.
    const loaded = load.then(
      () => null,
      (error: unknown) => error,
    );
    await sleep(300);
    postgres.halt();
    await sleep(1500);
    postgres.resume();
    // Back within a few seconds, on both processes, with their change listeners reconnected. Polled
    // gently: the check's own key may spend at most 2 × 10 s / 400 ms = 50 of its 60 requests a minute,
    // so one process answering before the other cannot run it into 429s, as polling every 50 ms could.
    try {
      await within(
        10_000,
        async () => {
          const results = await Promise.all(
            [first, second].map((service) => rag(service.url, key, assistant.id, { query: "outage" })),
          );
          return results.every((result) => result.status === 200);
        },
        400,
      );
    } finally {
      loading = false;
    }
    const loadFailure = await loaded;
    if (loadFailure !== null) throw loadFailure;
    expect(statuses.get(503)).toBeGreaterThan(0);
    // 429 is the shared limit of this file's small budget, which a busy load loop may reach.
    expect([...statuses.keys()].filter((status) => status !== 429).sort()).toEqual([200, 503]);

    const upload = await uploadFiles(first.url, assistant.id, [
      textFile("after.txt", "Recovered services ingest quinoa recipes again."),
    ]);
    const [document] = ((await upload.json()) as { documents: Array<{ id: string }> }).documents;
    const documents = await waitForDocuments(admin, assistant.id, { timeoutMs: 20_000 });
    expect(documents.map((item) => item.status)).toEqual(["ready"]);
    for (const service of [first, second]) {
      // A listener still in its reconnect backoff (at most 2 s) catches up when it reconnects.
      await within(5000, async () =>
        (await rag(service.url, key, assistant.id, { query: "quinoa" })).results.some(
          (result) => result.metadata.id_document === document!.id,
        ),
      );
    }
  }, 60_000);

  it("finishes a document on the other process, once, when the one reading it is killed", async () => {
    const assistant = await admin.createAssistant("killed");
    const key = (await admin.createKey(assistant.id, ["rag"])).key;
    // Every eval PDF in one (about 800 pages): long enough to be cut off mid-reading on an idle machine too.
    const large = join(temporaryDirectory("cka-scale-out-"), "large.pdf");
    execFileSync("qpdf", [
      "--empty",
      "--pages",
      ...evalPdfNames.map((name) => evalPdfPath(name)),
      "--",
      large,
    ]);
    const pages = Number(execFileSync("qpdf", ["--show-npages", large]).toString());
    const upload = await uploadFiles(first.url, assistant.id, [
      { name: "large.pdf", bytes: new Uint8Array(await readFile(large)) },
    ]);
    const [document] = ((await upload.json()) as { documents: Array<{ id: string }> }).documents;
    const documentId = document!.id;
    let victim: SpawnedService = first;
    await within(20_000, async () => {
      const reading = [first, second].find((service) => loggedFor(service, "ingesting", documentId).length);
      if (reading) victim = reading;
      const [listed] = await admin.listDocuments(assistant.id);
      return reading !== undefined && (listed?.pages_done ?? 0) > 0;
    });
    await victim.stop("SIGKILL");
    const survivor = victim === first ? second : first;
    const survivorAdmin = createAdminClient({ baseUrl: survivor.url, adminToken: testAdminToken });
    const [atKill] = await survivorAdmin.listDocuments(assistant.id);
    expect(atKill?.status, "the reading finished before the kill: nothing was tested").toBe("processing");
    const [finished] = await waitForDocuments(survivorAdmin, assistant.id, { timeoutMs: 90_000 }).catch(
      (error: Error) => {
        throw new Error(`${error.message}\n${survivor.logs().slice(-4000)}`);
      },
    );
    expect(finished).toMatchObject({ status: "ready", pages, pages_done: pages });
    // The listing shows "ready" once the commit lands; the survivor logs it a moment later, through a pipe.
    await within(10_000, async () => loggedFor(survivor, "document ready", documentId).length > 0).catch(
      () => {
        throw new Error(`the survivor never logged the document ready\n${survivor.logs().slice(-3000)}`);
      },
    );
    expect(loggedFor(victim, "document ready", documentId)).toHaveLength(0);
    expect(loggedFor(survivor, "document ready", documentId)).toHaveLength(1);
    const found = await rag(survivor.url, key, assistant.id, {
      query: "Osamu Aoki Debian Reference",
      max_results: 20,
    });
    const contents = found.results.map((result) => result.content);
    expect(contents.length).toBeGreaterThan(0);
    expect(new Set(contents).size).toBe(contents.length);
  }, 150_000);
});
