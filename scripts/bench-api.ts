/** `npm run bench:api`: rag and ask latency over HTTP on loopback, on the dev corpus and at 100k passages; PDF slices. */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Writable } from "node:stream";
import { createAdminClient } from "../service/cli/admin-client.ts";
import { ingestFiles } from "../service/cli/ingest-command.ts";
import { createPdfTokens } from "../service/pdf/pdf-token.ts";
import { type SpawnedService, spawnService } from "../service/testing/spawn-service.ts";
import { temporaryDirectory } from "../service/testing/temporary-directory.ts";
import { formatLatency, measure } from "./bench/latency.ts";
import { readPassages, writeSyntheticCorpus } from "./bench/synthetic-corpus.ts";
import type { QaItem } from "./eval-scoring.ts";

const evalDir = resolve(import.meta.dirname, "../../shared/eval");
const questions = readFileSync(join(evalDir, "qa-debian-docs.jsonl"), "utf8")
  .trim()
  .split("\n")
  .map((line) => (JSON.parse(line) as QaItem).question);
const quiet = new Writable({ write: (_chunk, _encoding, done) => done() }) as unknown as NodeJS.WriteStream;
const secrets = (dataDir: string) =>
  JSON.parse(readFileSync(join(dataDir, "secrets.json"), "utf8")) as {
    adminToken: string;
    tokenSecret: string;
  };
const env = { CKA_RATE_LIMIT_PER_MINUTE: "10000000" };

async function apiLatency(
  label: string,
  service: SpawnedService,
  assistantId: string,
  key: string,
): Promise<void> {
  const headers = {
    Authorization: `Bearer ${key}`,
    "X-App-Code": "selfserve",
    "Content-Type": "application/json",
  };
  const rag = (index: number) =>
    fetch(`${service.url}/external/v1/assistants/${assistantId}/rag`, {
      method: "POST",
      headers,
      body: JSON.stringify({ query: questions[index % questions.length]!.slice(0, 500) }),
    }).then((response) => response.arrayBuffer());
  await measure(50, rag);
  console.log(formatLatency(`${label}: rag`, await measure(1000, rag)));
  let firstLines: number[] = [];
  const ask = async (index: number) => {
    const started = performance.now();
    const response = await fetch(
      `${service.url}/external/v1/assistants/${assistantId}/sessions/${crypto.randomUUID()}/ask`,
      {
        method: "POST",
        headers,
        body: JSON.stringify({ id_user: "bench", message: questions[index % questions.length] }),
      },
    );
    const reader = response.body!.getReader();
    let first = true;
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      if (first) firstLines.push(performance.now() - started);
      first = false;
    }
  };
  await measure(20, ask);
  firstLines = [];
  console.log(formatLatency(`${label}: ask, complete extractive answer`, await measure(300, ask)));
  const sorted = firstLines.sort((a, b) => a - b);
  console.log(
    `${`${label}: ask, first stream line`.padEnd(44)} p50 ${sorted[Math.floor(sorted.length / 2)]!.toFixed(2)} ms  p95 ${sorted[Math.floor(sorted.length * 0.95)]!.toFixed(2)} ms`,
  );
}

async function sliceLatency(service: SpawnedService, assistantId: string, key: string): Promise<void> {
  const admin = createAdminClient({ url: service.url, adminToken: secrets(service.dataDir).adminToken });
  const gnuplot = (await admin.listDocuments(assistantId)).find(
    (document) => document.file_name === "gnuplot.pdf",
  )!;
  const tokens = createPdfTokens(secrets(service.dataDir).tokenSecret, 600);
  const slice = async (page: number) => {
    const { token } = tokens.issue({
      assistant: assistantId,
      reference: "ref_bench000000",
      document: gnuplot.id,
      pages: [page],
      user: "bench",
      session: crypto.randomUUID(),
    });
    const response = await fetch(
      `${service.url}/chat/reference/pdf/${encodeURIComponent(token)}?page=${page}`,
      {
        headers: { Authorization: `Bearer ${key}`, "X-App-Code": "selfserve", "X-External-User-Id": "bench" },
      },
    );
    if (response.status !== 200) throw new Error(`slice answered ${response.status}`);
    await response.arrayBuffer();
  };
  console.log(
    formatLatency("PDF slice, cold (311-page PDF, first request)", await measure(1, () => slice(150))),
  );
  console.log(
    formatLatency(
      "PDF slice, warm (parsed PDF cached, new pages)",
      await measure(100, (index) => slice(3 + index * 3)),
    ),
  );
  console.log(formatLatency("PDF slice, repeated (slice cached)", await measure(100, () => slice(150))));
}

const dev = await spawnService({ env });
let devPassagesDir = "";
try {
  const admin = createAdminClient({ url: dev.url, adminToken: secrets(dev.dataDir).adminToken });
  const assistant = await admin.createAssistant("Dev corpus");
  const key = await admin.createKey(assistant.id, ["ask", "rag"]);
  await ingestFiles(admin, { assistant: assistant.id, paths: [join(evalDir, "pdfs")], out: quiet });
  console.log("over HTTP on 127.0.0.1, one request at a time");
  await apiLatency("dev corpus (2,013 passages)", dev, assistant.id, key.key);
  await sliceLatency(dev, assistant.id, key.key);
  devPassagesDir = dev.dataDir;
} finally {
  await dev.stop();
}

const scaleDir = temporaryDirectory("cka-bench-");
const seed = await readPassages(devPassagesDir);
const writeStarted = performance.now();
const scaleAssistant = await writeSyntheticCorpus(scaleDir, seed, 100_000);
console.log(
  `wrote 100,000 synthetic passages in ${((performance.now() - writeStarted) / 1000).toFixed(1)} s`,
);
const scale = await spawnService({ dataDir: scaleDir, env });
try {
  const admin = createAdminClient({ url: scale.url, adminToken: secrets(scale.dataDir).adminToken });
  const key = await admin.createKey(scaleAssistant, ["ask", "rag"]);
  const loadStarted = performance.now();
  await fetch(`${scale.url}/external/v1/assistants/${scaleAssistant}/rag`, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${key.key}`,
      "X-App-Code": "selfserve",
      "Content-Type": "application/json",
    },
    body: JSON.stringify({ query: "warm up" }),
  });
  console.log(
    `first query at 100k (index built from stored passages): ${(performance.now() - loadStarted).toFixed(0)} ms`,
  );
  await apiLatency("100k passages", scale, scaleAssistant, key.key);
} finally {
  await scale.stop();
}
