/** `npm run bench:ingest`: end-to-end ingestion over HTTP into a fresh service; pages/s and the service's peak memory. */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Writable } from "node:stream";
import { createAdminClient } from "../service/cli/admin-client.ts";
import { ingestFiles } from "../service/cli/ingest-command.ts";
import { spawnService } from "../service/testing/spawn-service.ts";
import { octavePdf } from "./bench/large-pdf.ts";
import { peakRssMiB } from "./bench/service-memory.ts";

const evalPdfs = resolve(import.meta.dirname, "../../shared/eval/pdfs");
const quiet = new Writable({ write: (_chunk, _encoding, done) => done() }) as unknown as NodeJS.WriteStream;

/** The index snapshot is written after the last document: memory is measured once it is saved. */
async function snapshotSaved(logs: () => string): Promise<void> {
  for (let waited = 0; !logs().includes('"index snapshot saved"'); waited += 100) {
    if (waited > 30_000) throw new Error(`no index snapshot within 30 s:\n${logs()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

interface Run {
  pages: number;
  seconds: number;
  peakMiB: number;
}

/** One `cka ingest` (its default polling) into a freshly started service with a fresh data folder. */
async function ingestOnce(label: string, paths: string[]): Promise<Run> {
  const service = await spawnService({ env: { CKA_LOG: "info" } });
  try {
    const adminToken = JSON.parse(readFileSync(join(service.dataDir, "secrets.json"), "utf8"))
      .adminToken as string;
    const admin = createAdminClient({ url: service.url, adminToken });
    const assistant = await admin.createAssistant(label);
    const outcome = await ingestFiles(admin, { assistant: assistant.id, paths, out: quiet });
    if (outcome.failed > 0 || outcome.ready === 0) {
      throw new Error(`${label}: ${outcome.failed} failed, ${outcome.ready} ready\n${service.logs()}`);
    }
    await snapshotSaved(service.logs);
    return { pages: outcome.pages, seconds: outcome.seconds, peakMiB: peakRssMiB(service.process.pid!) };
  } finally {
    await service.stop();
  }
}

// This machine's speed varies by ±15% from one minute to the next: each figure is the median of a few runs.
const runs = 3;

async function report(label: string, paths: string[]): Promise<void> {
  const results: Run[] = [];
  for (let index = 0; index < runs; index++) results.push(await ingestOnce(label, paths));
  const rates = results.map((run) => run.pages / run.seconds).sort((a, b) => a - b);
  const median = rates[Math.floor(rates.length / 2)] as number;
  const peak = Math.max(...results.map((run) => run.peakMiB));
  console.log(
    `${label}: all ${results[0]?.pages} pages ready; median ${median.toFixed(0)} pages/s over ${runs} runs ` +
      `(${rates.map((rate) => rate.toFixed(0)).join(", ")}); service peak RSS ${peak.toFixed(0)} MiB, index snapshot included`,
  );
}

console.log(
  "end to end: `cka ingest` → upload → worker-thread extraction → passages → commit → index, over HTTP on loopback",
);
await report("dev corpus (3 eval PDFs)", [evalPdfs]);
const large = octavePdf();
if (large) await report("octave.pdf", [large]);
