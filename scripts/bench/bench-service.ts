/** A spawned service with its admin client and an API key, and the public requests the benchmark times. */
import { randomBytes } from "node:crypto";
import { Writable } from "node:stream";
import { type AdminClient, createAdminClient } from "../../sdk/admin/index.ts";
import { publicPaths } from "../../sdk/core/service-paths.ts";
import { ragResponseSchema } from "../../sdk/core/wire.ts";
import { ingestFiles } from "../../service/cli/ingest-command.ts";
import { type SpawnedService, spawnService } from "../../service/testing/spawn-service.ts";

export interface BenchService {
  service: SpawnedService;
  admin: AdminClient;
  /** Sent as-is with every public request. */
  headers: Record<string, string>;
  assistantId: string;
}

/** Shared by every process of one benchmark so that two services on one PostgreSQL accept the same keys. */
export const sharedSecrets = {
  adminToken: randomBytes(24).toString("base64url"),
  tokenSecret: randomBytes(32).toString("base64url"),
};

const quiet = new Writable({ write: (_chunk, _encoding, done) => done() }) as unknown as NodeJS.WriteStream;

export async function startService(
  options: { dataDir?: string; databaseUrl?: string; env?: Record<string, string> } = {},
): Promise<SpawnedService> {
  return spawnService({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    env: {
      CKA_RATE_LIMIT_PER_MINUTE: "100000000",
      CKA_ADMIN_TOKEN: sharedSecrets.adminToken,
      CKA_TOKEN_SECRET: sharedSecrets.tokenSecret,
      ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
      ...options.env,
    },
  });
}

/** Opens `assistantId` (or a new assistant) on a running service with a fresh ask+rag key. */
export async function attach(service: SpawnedService, assistantId?: string): Promise<BenchService> {
  const admin = createAdminClient({ baseUrl: service.url, adminToken: sharedSecrets.adminToken });
  const id = assistantId ?? (await admin.createAssistant("Bench")).id;
  const key = await admin.createKey(id, ["ask", "rag"], "bench");
  return {
    service,
    admin,
    assistantId: id,
    headers: {
      Authorization: `Bearer ${key.key}`,
      "X-App-Code": "selfserve",
      "Content-Type": "application/json",
    },
  };
}

/** Uploads the files and waits until every one is ready; pages and seconds as `cka ingest` reports them. */
export async function ingest(
  bench: BenchService,
  paths: string[],
): Promise<{ pages: number; seconds: number }> {
  const outcome = await ingestFiles(bench.admin, { assistant: bench.assistantId, paths, out: quiet }).catch(
    (error: unknown) => {
      const { exitCode, signalCode } = bench.service.process;
      throw new Error(
        `ingestion stopped (service exit ${exitCode ?? signalCode ?? "none"})\n${bench.service.logs()}`,
        {
          cause: error,
        },
      );
    },
  );
  if (outcome.failed > 0 || outcome.ready === 0) {
    throw new Error(`ingestion: ${outcome.failed} failed, ${outcome.ready} ready\n${bench.service.logs()}`);
  }
  return { pages: outcome.pages, seconds: outcome.seconds };
}

/** Passage ids of the top `maxResults`, best first. */
export async function rag(bench: BenchService, query: string, maxResults = 5, url = bench.service.url) {
  const response = await fetch(`${url}${publicPaths.rag(bench.assistantId)}`, {
    method: "POST",
    headers: bench.headers,
    body: JSON.stringify({ query: query.slice(0, 500), max_results: maxResults }),
  });
  if (response.status !== 200) throw new Error(`rag answered ${response.status}: ${await response.text()}`);
  return ragResponseSchema.parse(await response.json()).results.map((result) => result.id_element);
}

/** Milliseconds to the first NDJSON line and to the end of the stream. */
export async function ask(
  bench: BenchService,
  question: string,
): Promise<{ firstLineMs: number; doneMs: number }> {
  const started = performance.now();
  const response = await fetch(
    `${bench.service.url}${publicPaths.ask(bench.assistantId, crypto.randomUUID())}`,
    { method: "POST", headers: bench.headers, body: JSON.stringify({ id_user: "bench", message: question }) },
  );
  if (response.status !== 200 || !response.body) throw new Error(`ask answered ${response.status}`);
  const decoder = new TextDecoder();
  let text = "";
  let firstLineMs: number | null = null;
  for await (const chunk of response.body) {
    text += decoder.decode(chunk, { stream: true });
    if (firstLineMs === null && text.includes("\n")) firstLineMs = performance.now() - started;
  }
  const doneMs = performance.now() - started;
  return { firstLineMs: firstLineMs ?? doneMs, doneMs };
}
