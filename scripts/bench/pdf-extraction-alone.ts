/**
 * Benchmark: extraction by the worker pool (and passage building) against the floor, pdfjs's own
 * `getTextContent` of every page in as many threads, interleaved so both see the same machine load.
 * Usage: node scripts/bench/pdf-extraction-alone.ts [--rounds=N] [file.pdf …]
 */
import { readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { isMainThread, parentPort, Worker } from "node:worker_threads";
import { buildPassages } from "../../service/ingest/build-passages.ts";
import { openPdf } from "../../service/ingest/pdf/pdf-document.ts";
import { createPdfExtractorPool, type PdfExtractorPool } from "../../service/ingest/pdf/pool.ts";

const defaultFiles = ["debian-reference.en.pdf", "developers-reference.pdf", "gnuplot.pdf"].map((name) =>
  path.resolve(import.meta.dirname, "../../../shared/eval/pdfs", name),
);

interface FloorTask {
  files: string[];
  /** This thread reads the pages of its share: `[share / shares, (share + 1) / shares)` of each file. */
  share: number;
  shares: number;
}

/** Worker side of the floor: opens each file and reads its share of pages' text content, nothing more. */
async function readFloorShare({ files, share, shares }: FloorTask): Promise<number> {
  let pages = 0;
  for (const file of files) {
    const opened = await openPdf(new Uint8Array(await readFile(file)));
    const count = opened.document.numPages;
    const first = Math.floor((count * share) / shares);
    const end = Math.floor((count * (share + 1)) / shares);
    for (let index = first; index < end; index++) {
      const page = await opened.document.getPage(index + 1);
      await page.getTextContent();
      page.cleanup();
      pages++;
    }
    await opened.close();
  }
  return pages;
}

interface Timing {
  seconds: number;
  /** CPU time of every thread of the process: less sensitive than wall time to other load on the machine. */
  cpuSeconds: number;
}

function startTiming(): { stop(): Timing } {
  const started = performance.now();
  const cpu = process.cpuUsage();
  return {
    stop() {
      const used = process.cpuUsage(cpu);
      return { seconds: (performance.now() - started) / 1000, cpuSeconds: (used.user + used.system) / 1e6 };
    },
  };
}

/** Floor threads live for the whole run, like the pool's, so neither side pays for starting threads. */
function createFloorThreads(count: number) {
  const threads = Array.from({ length: count }, () => new Worker(new URL(import.meta.url)));
  const run = (thread: Worker, task: FloorTask) =>
    new Promise<number>((resolve, reject) => {
      thread.once("message", resolve);
      thread.once("error", reject);
      thread.postMessage(task);
    });
  return {
    async round(files: string[]): Promise<Timing> {
      const started = startTiming();
      await Promise.all(threads.map((thread, share) => run(thread, { files, share, shares: count })));
      return started.stop();
    },
    close: () => Promise.all(threads.map((thread) => thread.terminate())),
  };
}

async function poolRound(pool: PdfExtractorPool, files: string[]): Promise<Timing & { pages: number }> {
  const documents = await Promise.all(files.map(async (file) => new Uint8Array(await readFile(file))));
  const started = startTiming();
  const results = await Promise.all(
    documents.map(async (bytes, index) => {
      const extraction = await pool.extract(bytes, { ocr: false });
      buildPassages(extraction.blocks, {
        assistantId: "asst_bench",
        datasourceId: "ds_bench",
        documentId: `doc_${index}`,
        sha256: String(index),
        title: extraction.title ?? "",
      });
      return extraction;
    }),
  );
  const pages = results.reduce((sum, extraction) => sum + extraction.pageCount, 0);
  return { ...started.stop(), pages };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const named = args.filter((argument) => !argument.startsWith("--"));
  const rounds = Number(args.find((argument) => argument.startsWith("--rounds="))?.slice(9) ?? 3);
  const files = named.length > 0 ? named : defaultFiles;
  const size = os.availableParallelism();
  const pool = createPdfExtractorPool({ size });
  const floorThreads = createFloorThreads(size);
  try {
    // Warms both sides' threads and pdfjs; not counted.
    await poolRound(pool, files);
    await floorThreads.round(files);
    const ratios: number[] = [];
    const cpuRatios: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const floor = await floorThreads.round(files);
      const ours = await poolRound(pool, files);
      ratios.push(floor.seconds / ours.seconds);
      cpuRatios.push(floor.cpuSeconds / ours.cpuSeconds);
      const rate = (timing: Timing) =>
        `${(ours.pages / timing.seconds).toFixed(0)} pages/s, ${((1000 * timing.cpuSeconds) / ours.pages).toFixed(1)} CPU-ms/page`;
      console.log(
        `round ${round + 1}: ${ours.pages} pages; pool + passages ${rate(ours)}; pdfjs floor (${size} threads) ${rate(floor)}`,
      );
    }
    const median = (values: number[]) =>
      `${(100 * values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!).toFixed(0)}%`;
    console.log(
      `median speed ${median(ratios)} of the floor's, CPU efficiency ${median(cpuRatios)} of the floor's`,
    );
  } finally {
    await pool.close();
    await floorThreads.close();
  }
}

if (isMainThread) await main();
else
  parentPort?.on("message", async (task: FloorTask) => parentPort?.postMessage(await readFloorShare(task)));
