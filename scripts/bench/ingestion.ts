/**
 * Ingestion throughput, upload to ready over HTTP, beside the floors of text extraction alone:
 * pdfjs-dist `getTextContent` on two worker threads, and poppler's `pdftotext -bbox-layout` two at a time;
 * and the service's extraction pool alone, to tell the pool's cost from the rest of the service's.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { promisify } from "node:util";
import { Worker } from "node:worker_threads";
import { collectFiles } from "../../service/cli/ingest-command.ts";
import { createPdfExtractorPool } from "../../service/ingest/pdf/pool.ts";
import { attach, ingest, startService } from "./bench-service.ts";

const run = promisify(execFile);
const parallel = 2;

export interface OurIngestion {
  pages: number;
  /** The service's first corpus after it started (its code still cold), then a second one on the same service. */
  pagesPerSecond: { fresh: number; warm: number };
  /** The data folder of the stopped service, with the files ingested (twice, in two assistants). */
  dataDir: string;
  /** The assistant of the first ingestion. */
  assistantId: string;
}

/** Ingests the files into a freshly started service with a new data folder, then again into a new assistant. */
export async function ourIngestion(paths: string[]): Promise<OurIngestion> {
  const service = await startService();
  try {
    const first = await attach(service);
    const fresh = await ingest(first, paths);
    const warm = await ingest(await attach(service), paths);
    return {
      pages: fresh.pages,
      pagesPerSecond: { fresh: fresh.pages / fresh.seconds, warm: warm.pages / warm.seconds },
      dataDir: service.dataDir,
      assistantId: first.assistantId,
    };
  } finally {
    await service.stop();
  }
}

/**
 * Pages per second of pdfjs reading every page's text, pages split between two new worker threads: the first
 * pass, then a second pass on the same threads.
 */
export async function pdfjsFloor(paths: string[]): Promise<{ fresh: number; warm: number }> {
  const files = collectFiles(paths);
  const workers = Array.from(
    { length: parallel },
    (_, share) =>
      new Worker(new URL("./pdfjs-text-worker.ts", import.meta.url), {
        workerData: { files, share, shares: parallel },
      }),
  );
  const pass = async (): Promise<number> => {
    const started = performance.now();
    const counts = await Promise.all(
      workers.map(
        (worker) =>
          new Promise<number>((resolve, reject) => {
            worker.once("message", resolve);
            worker.once("error", reject);
            worker.postMessage("read");
          }),
      ),
    );
    return counts.reduce((sum, count) => sum + count, 0) / ((performance.now() - started) / 1000);
  };
  try {
    const fresh = await pass();
    return { fresh, warm: await pass() };
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}

/**
 * Pages per second of the service's own extraction pool (worker threads) in this process, started for the
 * run: every file extracted at once, without upload, passages, storage or index; OCR of pages without a
 * text layer on or off.
 */
export async function poolAlone(paths: string[], ocr: boolean): Promise<number> {
  const files = collectFiles(paths);
  const contents = files.map((file) => new Uint8Array(readFileSync(file)));
  const pool = createPdfExtractorPool();
  try {
    const started = performance.now();
    const extractions = await Promise.all(contents.map((bytes) => pool.extract(bytes, { ocr })));
    const pages = extractions.reduce((sum, extraction) => sum + extraction.pageCount, 0);
    return pages / ((performance.now() - started) / 1000);
  } finally {
    await pool.close();
  }
}

async function pageCount(file: string): Promise<number> {
  const { stdout } = await run("pdfinfo", [file]);
  const match = /^Pages:\s+(\d+)/m.exec(stdout);
  if (!match) throw new Error(`pdfinfo found no page count in ${file}`);
  return Number(match[1]);
}

/** Pages per second of `pdftotext -bbox-layout`, each file cut in two page ranges, two processes at a time. */
export async function pdftotextFloor(paths: string[]): Promise<number> {
  const files = collectFiles(paths);
  const counts = await Promise.all(files.map(pageCount));
  const jobs = files.flatMap((file, index) => {
    const half = Math.ceil(counts[index]! / 2);
    return [
      [file, 1, half],
      [file, half + 1, counts[index]!],
    ] as const;
  });
  const started = performance.now();
  let next = 0;
  const lane = async () => {
    for (let job = jobs[next++]; job; job = jobs[next++]) {
      const [file, first, last] = job;
      if (first > last) continue;
      await run("pdftotext", ["-bbox-layout", "-f", String(first), "-l", String(last), file, "/dev/null"], {
        maxBuffer: 1024,
      });
    }
  };
  await Promise.all(Array.from({ length: parallel }, lane));
  return counts.reduce((sum, count) => sum + count, 0) / ((performance.now() - started) / 1000);
}
