/**
 * Rag throughput on PostgreSQL with one service process, then two sharing it (and one data folder):
 * prints requests per second of each and their ratio. `node scripts/bench/scale-out.ts [seconds] [concurrency]`
 */
import { readFile } from "node:fs/promises";
import { createAdminClient } from "../../service/cli/admin-client.ts";
import { evalPdfPath } from "../../service/ingest/pdf/test-fixtures.ts";
import { startPostgres } from "../../service/testing/postgres.ts";
import { testAdminToken, uploadFiles, waitForDocuments } from "../../service/testing/sharing-area.ts";
import { type SpawnedService, spawnService } from "../../service/testing/spawn-service.ts";
import { removeTemporaryDirectories, temporaryDirectory } from "../../service/testing/temporary-directory.ts";

const seconds = Number(process.argv[2] ?? 8);
const concurrency = Number(process.argv[3] ?? 8);
const queries = ["package management", "network configuration", "upload a new package", "mailing lists"];

/** Keeps `concurrency` rag requests in flight for `duration` seconds, spread over `urls`; returns completed requests/s. */
async function ragRate(
  urls: readonly string[],
  key: string,
  assistantId: string,
  duration = seconds,
): Promise<number> {
  const deadline = performance.now() + duration * 1000;
  let completed = 0;
  const worker = async (slot: number) => {
    for (let turn = slot; performance.now() < deadline; turn += concurrency) {
      const response = await fetch(`${urls[turn % urls.length]}/external/v1/assistants/${assistantId}/rag`, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${key}`,
          "X-App-Code": "selfserve",
          "Content-Type": "application/json",
        },
        body: JSON.stringify({ query: queries[turn % queries.length], max_results: 10 }),
      });
      if (response.status !== 200) throw new Error(`rag answered ${response.status}`);
      await response.arrayBuffer();
      completed += 1;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, (_, slot) => worker(slot)));
  return completed / ((performance.now() - started) / 1000);
}

const postgres = await startPostgres();
const services: SpawnedService[] = [];
try {
  const dataDir = temporaryDirectory("cka-bench-scale-");
  const env = {
    DATABASE_URL: postgres.url,
    CKA_ADMIN_TOKEN: testAdminToken,
    CKA_RATE_LIMIT_PER_MINUTE: "100000000",
  };
  services.push(await spawnService({ dataDir, env }));
  const [first] = services as [SpawnedService];
  const admin = createAdminClient({ url: first.url, adminToken: testAdminToken });
  const assistant = await admin.createAssistant("bench");
  const key = (await admin.createKey(assistant.id, ["rag"])).key;
  const name = "developers-reference.pdf";
  await uploadFiles(first.url, assistant.id, [
    { name, bytes: new Uint8Array(await readFile(evalPdfPath(name))) },
  ]);
  await waitForDocuments(admin, assistant.id, { timeoutMs: 120_000 });

  await ragRate([first.url], key, assistant.id, 2); // warm-up: index loaded, code compiled
  const one = await ragRate([first.url], key, assistant.id);
  services.push(await spawnService({ dataDir, env }));
  const urls = services.map((service) => service.url);
  await ragRate(urls, key, assistant.id, 2);
  const two = await ragRate(urls, key, assistant.id);
  console.log(`rag, ${concurrency} in flight, ${seconds} s each, PostgreSQL`);
  console.log(`one process:   ${one.toFixed(0)} req/s`);
  console.log(`two processes: ${two.toFixed(0)} req/s`);
  console.log(`ratio:         ${(two / one).toFixed(2)}`);
} finally {
  await Promise.all(services.map((service) => service.stop("SIGKILL")));
  postgres.stop();
  removeTemporaryDirectories();
}
