/**
 * Fault injection: the service is SIGKILLed again and again while it ingests valid PDFs, and once during a
 * streaming answer. Each time it is started again on the same data folder; in the end every document must be
 * ready, once, with as many passages as a clean reading of the same files, and the session asked before the
 * kills intact.
 */
import { randomUUID } from "node:crypto";
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { createAdminClient } from "../../sdk/admin/index.ts";
import type { DocumentRecord } from "../../sdk/admin/schemas.ts";
import { publicPaths } from "../../sdk/core/service-paths.ts";
import { type AskStreamLine, askStreamLineSchema } from "../../sdk/core/wire.ts";
import { openStore } from "../store/store.ts";
import { callPublic } from "../testing/public-api-client.ts";
import { testAdminToken, uploadFiles, waitForDocuments } from "../testing/sharing-area.ts";
import { type SpawnedService, spawnService } from "../testing/spawn-service.ts";
import { type EvalPdf, evalPdfPath } from "./pdf/testing/pdf-fixtures.ts";

const names: EvalPdf[] = ["debian-reference.en.pdf", "developers-reference.pdf", "gnuplot.pdf"];
const serviceEnv = { CKA_ADMIN_TOKEN: testAdminToken };
const user = "fault-test-user";
const splitQuestion = "How can I split a huge backup file into 2000 MiB pieces?";
const joinQuestion = "And how do I join those pieces back into the original file?";

type Files = Array<{ name: EvalPdf; bytes: Uint8Array }>;
type Done = (documents: DocumentRecord[]) => boolean;

const services: SpawnedService[] = [];
const folders: string[] = [];
afterAll(async () => {
  await Promise.all(services.map((service) => service.stop("SIGKILL")));
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
});

async function start(dataDir?: string): Promise<SpawnedService> {
  const service = await spawnService({ env: serviceEnv, ...(dataDir ? { dataDir } : {}) });
  services.push(service);
  if (!dataDir) folders.push(service.dataDir);
  return service;
}

async function uploaded(response: Response): Promise<DocumentRecord[]> {
  expect(response.status).toBe(202);
  return ((await response.json()) as { documents: DocumentRecord[] }).documents;
}

async function ask(
  service: SpawnedService,
  assistantId: string,
  key: string,
  session: string,
  message: string,
) {
  const response = await callPublic(service.url, {
    path: publicPaths.ask(assistantId, session),
    key,
    body: { id_user: user, message },
  });
  expect(response.status).toBe(200);
  const lines: AskStreamLine[] = (await response.text())
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => askStreamLineSchema.parse(JSON.parse(line)));
  const done = lines.find((line) => line.type === "done");
  const search = lines.find((line) => line.type === "activity" && line.name === "search");
  expect(done, message).toBeDefined();
  return {
    messageId: done?.type === "done" ? done.id_message : "",
    followUp: search?.type === "activity" ? search.detail.follow_up : undefined,
  };
}

const processing = (documents: DocumentRecord[]) =>
  documents.filter((document) => document.status === "processing");
const allReady = (documents: DocumentRecord[]) => documents.every((document) => document.status === "ready");

/** The moments of the kills: early in a reading, at once after a start, after a commit, late in a reading. */
const killMoments: Array<{ name: string; when: (readyAtStart: number) => Done }> = [
  {
    name: "early in a reading",
    when: () => (documents) => processing(documents).some((d) => (d.pages_done ?? 0) > 0),
  },
  { name: "right after start", when: () => () => true },
  {
    name: "after a document was committed",
    when: (readyAtStart) => (documents) =>
      documents.filter((d) => d.status === "ready").length > readyAtStart && processing(documents).length > 0,
  },
  {
    name: "late in a reading",
    when: () => (documents) =>
      processing(documents).some((d) => d.pages !== undefined && (d.pages_done ?? 0) >= d.pages / 2),
  },
];

it("survives SIGKILLs during ingestion and during an answer: every document ready once, passages and sessions intact", async () => {
  const files: Files = await Promise.all(
    names.map(async (name) => ({ name, bytes: new Uint8Array(await readFile(evalPdfPath(name))) })),
  );
  let service = await start();
  const dataDir = service.dataDir;
  let client = createAdminClient({ baseUrl: service.url, adminToken: testAdminToken });

  // Before any fault: the same files read cleanly (in an assistant of their own), to compare passage counts
  // with; and a session with two answered turns.
  const cleanAssistant = await client.createAssistant("clean");
  await uploaded(await uploadFiles(service.url, cleanAssistant.id, files));
  const assistant = await client.createAssistant("faults");
  const key = (await client.createKey(assistant.id, ["ask", "rag"])).key;
  const first = await uploaded(await uploadFiles(service.url, assistant.id, files.slice(0, 1)));
  const cleanDocuments = await waitForDocuments(client, cleanAssistant.id, { timeoutMs: 150_000 });
  const passagesOf = new Map(cleanDocuments.map((document) => [document.sha256, document.passages]));
  await waitForDocuments(client, assistant.id, { timeoutMs: 150_000 });
  const session = randomUUID();
  const turnsBefore = [
    await ask(service, assistant.id, key, session, splitQuestion),
    await ask(service, assistant.id, key, session, joinQuestion),
  ];
  expect(turnsBefore[1]?.followUp).toBe(true);

  const rest = [
    ...(await uploaded(await uploadFiles(service.url, assistant.id, files.slice(1)))),
    ...(await uploaded(await uploadFiles(service.url, assistant.id, files, { datasource: "second" }))),
  ];
  const expectedIds = [...first, ...rest].map((document) => document.id).sort();

  let faults = 0;
  for (const moment of killMoments) {
    const atStart = await client.listDocuments(assistant.id);
    const readyAtStart = atStart.filter((document) => document.status === "ready").length;
    const atKill = await waitForDocuments(client, assistant.id, {
      timeoutMs: 150_000,
      done: (documents) => allReady(documents) || moment.when(readyAtStart)(documents),
    });
    await service.stop("SIGKILL");
    if (!allReady(atKill)) faults += 1;
    service = await start(dataDir);
    client = createAdminClient({ baseUrl: service.url, adminToken: testAdminToken });
    // The same files uploaded again after a crash are the same documents, not new ones.
    if (moment.name === "after a document was committed") {
      const again = await uploaded(
        await uploadFiles(service.url, assistant.id, files, { datasource: "second" }),
      );
      expect(again.map((document) => document.status)).not.toContain("failed");
    }
  }
  expect(faults, "kills that cut off ingestion").toBeGreaterThanOrEqual(3);

  const after = await waitForDocuments(client, assistant.id, { timeoutMs: 150_000 });
  expect(after.map((document) => document.id).sort()).toEqual(expectedIds);
  for (const document of after) {
    const label = `${document.datasource}/${document.file_name}`;
    expect([document.status, document.error], label).toEqual(["ready", undefined]);
    expect(document.passages, label).toBe(passagesOf.get(document.sha256));
    expect(document.pages_done, label).toBe(document.pages);
  }

  // Killed while an answer streams: the next start answers, and the session remembers its turns.
  const streaming = await callPublic(service.url, {
    path: publicPaths.ask(assistant.id, session),
    key,
    body: { id_user: user, message: "How do I plot a surface with splot?" },
  });
  expect(streaming.status).toBe(200);
  const reader = streaming.body?.getReader();
  await reader?.read();
  await service.stop("SIGKILL");
  faults += 1;
  await reader?.cancel().catch(() => undefined);
  service = await start(dataDir);
  const afterRestart = await ask(service, assistant.id, key, session, joinQuestion);
  expect(afterRestart.followUp).toBe(true);

  // What the service stored for the session: the turns answered before the kills, unchanged and in order.
  expect(await service.stop("SIGTERM")).toBe(0);
  const store = await openStore({ pgliteDir: join(dataDir, "pglite") });
  try {
    const turns = await store.sessions.recentTurns(assistant.id, session, 10);
    expect(turns.slice(0, 2).map((turn) => [turn.id, turn.question, turn.refusal])).toEqual([
      [turnsBefore[0]?.messageId, splitQuestion, false],
      [turnsBefore[1]?.messageId, joinQuestion, false],
    ]);
    expect(turns.at(-1)?.id).toBe(afterRestart.messageId);
  } finally {
    await store.close();
  }

  const passages = after.reduce((sum, document) => sum + (document.passages ?? 0), 0);
  console.log(
    `ingestion faults: ${faults} SIGKILLs (${faults - 1} during ingestion, 1 during a streaming answer); ` +
      `${after.length} documents checked (all ready, none lost or duplicated); ` +
      `${passages} passages checked against a clean ingestion; 2 session turns intact`,
  );
}, 420_000);
