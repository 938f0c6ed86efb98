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

async function run(label: string, paths: string[]): Promise<void> {
  const service = await spawnService({ env: { CKA_LOG: "info" } });
  try {
    const adminToken = JSON.parse(readFileSync(join(service.dataDir, "secrets.json"), "utf8"))
      .adminToken as string;
    const admin = createAdminClient({ url: service.url, adminToken });
    const assistant = await admin.createAssistant(label);
    const outcome = await ingestFiles(admin, { assistant: assistant.id, paths, out: quiet, pollMs: 50 });
    const rate = outcome.pages / outcome.seconds;
    await snapshotSaved(service.logs);
    console.log(
      `${label}: ${outcome.ready} ready, ${outcome.failed} failed; ${outcome.pages} pages in ${outcome.seconds.toFixed(2)} s = ` +
        `${rate.toFixed(0)} pages/s; service peak RSS ${peakRssMiB(service.process.pid!).toFixed(0)} MiB (index snapshot saved)`,
    );
  } finally {
    await service.stop();
  }
}

console.log(
  "end to end: upload → worker-thread extraction → passages → commit → index, over HTTP on loopback",
);
await run("dev corpus (3 eval PDFs)", [evalPdfs]);
const large = octavePdf();
if (large) await run("octave.pdf", [large]);
