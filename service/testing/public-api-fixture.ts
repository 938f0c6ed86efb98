/** A real service process with an assistant whose documents are ingested and keys of each scope: the bed of the public API's cross-process tests. */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { join, resolve } from "node:path";
import { type AdminClient, createAdminClient } from "../../sdk/admin/index.ts";
import type { Assistant, DocumentRecord, KeyCreated } from "../../sdk/admin/schemas.ts";
import type { Scope } from "../../sdk/core/wire.ts";
import { uploadFile } from "../cli/admin-client.ts";
import { createPdfTokens, type PdfTokenClaims } from "../pdf-slices/pdf-token.ts";
import { openInProcessService } from "./in-process-service.ts";
import { callPublic, type PublicCall } from "./public-api-client.ts";
import { type SpawnedService, spawnService } from "./spawn-service.ts";
import { temporaryDirectory } from "./temporary-directory.ts";

/** How long a test file's `beforeAll` may take: a process start, then ingestion, on a busy machine. */
export const fixtureStartTimeout = 200_000;

/** The shared evaluation PDFs (`debian-reference.en.pdf`, `gnuplot.pdf`, …). */
export const evalPdfFolder = resolve(import.meta.dirname, "../../../shared/eval/pdfs");

/** Copies `pages` (qpdf syntax, e.g. `"1-12"`) of `source` into a new PDF in a temporary folder. */
export function extractPdfPages(source: string, pages: string, fileName: string): string {
  const target = join(temporaryDirectory("cka-pdf-"), fileName);
  execFileSync("qpdf", ["--empty", "--pages", source, pages, "--", target]);
  return target;
}

export interface FixtureFile {
  path: string;
  /** Datasource name; the service's default one when absent. */
  datasource?: string;
}

export interface PublicApiFixture {
  /** Base URL of the service (a spawned one's changes on `restart`). */
  readonly url: string;
  /** The spawned process: its logs, its signals. Only for a fixture started with `process: "spawned"`. */
  readonly service: SpawnedService;
  /** Sends a call of the public API to the service, over HTTP or to the in-process app. */
  call(call: PublicCall): Promise<Response>;
  readonly admin: AdminClient;
  /** The `CKA_TOKEN_SECRET` the service signs PDF tokens with, so a test can mint its own. */
  readonly tokenSecret: string;
  /** The `CKA_ADMIN_TOKEN` of the sharing area. */
  readonly adminToken: string;
  readonly assistant: Assistant;
  /** A second assistant, with no documents: its id and keys must be useless to the first one's keys. */
  readonly otherAssistant: Assistant;
  /** The first assistant's documents, all `ready`, in upload order. */
  readonly documents: DocumentRecord[];
  document(fileName: string): DocumentRecord;
  createKey(scopes: Scope[], assistantId?: string): Promise<KeyCreated>;
  /** A PDF token signed as the service signs them; a negative TTL makes an authentic, expired one. */
  mintPdfToken(claims: Partial<PdfTokenClaims> & { pages: number[] }, ttlSeconds?: number): string;
  /** A clean stop (SIGTERM for a process), then the service again on the same data folder and environment. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export const testUser = "user-1";
export const testSession = "3f1c2a9e-7b4d-4c8e-9a1f-0d2b3c4e5f60";
/** The reference id of a minted token unless a test names another. */
export const mintedReference = "ref_minted0000000000000";

/** How a fixture runs the service: in the test's process (`app.request`, no socket) or as a child process. */
interface ServiceUnderTest {
  readonly url: string;
  readonly fetch: typeof fetch;
  readonly spawned: SpawnedService | null;
  restart(): Promise<void>;
  stop(): Promise<void>;
}

async function spawned(env: Record<string, string>): Promise<ServiceUnderTest> {
  let service = await spawnService({ env });
  return {
    get url() {
      return service.url;
    },
    fetch: (input, init) => fetch(input, init),
    get spawned() {
      return service;
    },
    async restart() {
      const code = await service.stop("SIGTERM");
      if (code !== 0) throw new Error(`service stopped with ${code}:\n${service.logs()}`);
      service = await spawnService({ dataDir: service.dataDir, env });
    },
    async stop() {
      await service.stop("SIGKILL");
    },
  };
}

async function inProcess(env: Record<string, string>): Promise<ServiceUnderTest> {
  const service = await openInProcessService({ env });
  return {
    url: service.url,
    fetch: service.fetch,
    spawned: null,
    restart: service.restart,
    stop: service.close,
  };
}

/**
 * `process`: `"in-process"` (the default) answers with the service's app in the test's process; `"spawned"`
 * runs it as a child process, for what only a process shows (its logs, signals, client disconnects).
 */
export async function startPublicApiFixture(options: {
  files: FixtureFile[];
  env?: Record<string, string>;
  process?: "in-process" | "spawned";
}): Promise<PublicApiFixture> {
  const adminToken = randomBytes(24).toString("base64url");
  const tokenSecret = randomBytes(32).toString("base64url");
  const env = {
    CKA_ADMIN_TOKEN: adminToken,
    CKA_TOKEN_SECRET: tokenSecret,
    CKA_OCR: "off",
    ...options.env,
  };
  const service = await (options.process === "spawned" ? spawned(env) : inProcess(env));
  let admin = createAdminClient({ baseUrl: service.url, adminToken, fetch: service.fetch });
  try {
    const assistant = await admin.createAssistant("public API test");
    const otherAssistant = await admin.createAssistant("another tenant");
    for (const file of options.files) await uploadFile(admin, assistant.id, file.path, file.datasource);
    const documents = await waitUntilReady(admin, assistant.id);
    return {
      get url() {
        return service.url;
      },
      get service() {
        if (service.spawned === null) throw new Error("this fixture runs the service in process: no process");
        return service.spawned;
      },
      call: (call) => callPublic(service.url, call, service.fetch),
      get admin() {
        return admin;
      },
      tokenSecret,
      adminToken,
      assistant,
      otherAssistant,
      documents,
      document(fileName) {
        const found = documents.find((document) => document.file_name === fileName);
        if (!found) throw new Error(`no ingested document ${fileName}`);
        return found;
      },
      createKey: (scopes, assistantId = assistant.id) => admin.createKey(assistantId, scopes),
      mintPdfToken(claims, ttlSeconds = 600) {
        const document = claims.document ?? documents[0]!.id;
        return createPdfTokens(tokenSecret, ttlSeconds).issue({
          assistant: assistant.id,
          reference: mintedReference,
          document,
          user: testUser,
          session: testSession,
          ...claims,
        }).token;
      },
      async restart() {
        await service.restart();
        admin = createAdminClient({ baseUrl: service.url, adminToken, fetch: service.fetch });
      },
      stop: () => service.stop(),
    };
  } catch (error) {
    await service.stop();
    throw error;
  }
}

async function waitUntilReady(admin: AdminClient, assistantId: string): Promise<DocumentRecord[]> {
  // Generous: ingestion competes for the CPU with whatever else the machine runs.
  const deadline = Date.now() + 150_000;
  for (;;) {
    const documents = await admin.listDocuments(assistantId);
    const failed = documents.find((document) => document.status === "failed");
    if (failed) throw new Error(`ingestion of ${failed.file_name} failed: ${failed.error}`);
    if (documents.every((document) => document.status === "ready")) return documents;
    if (Date.now() > deadline) {
      const states = documents.map(
        (document) =>
          `${document.file_name}: ${document.status} ${document.pages_done ?? 0}/${document.pages ?? "?"}`,
      );
      throw new Error(`documents were not ready within 150 s (${states.join(", ")})`);
    }
    await new Promise((resolveWait) => setTimeout(resolveWait, 200));
  }
}
