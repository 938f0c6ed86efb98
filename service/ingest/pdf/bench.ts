/**
 * Benchmark: extracts the given PDFs (default: the three eval PDFs) with the worker pool, twice:
 * once with fresh workers, once warm. Prints pages/s and the process's peak RSS.
 * Usage: node service/ingest/pdf/bench.ts [--ocr] [file.pdf …]
 */
import { readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createPdfExtractorPool, type PdfExtractorPool } from "./pool.ts";

const defaultFiles = ["debian-reference.en.pdf", "developers-reference.pdf", "gnuplot.pdf"].map((name) =>
  path.resolve(import.meta.dirname, "../../../../shared/eval/pdfs", name),
);

async function round(pool: PdfExtractorPool, files: string[], ocr: boolean): Promise<string> {
  const documents = await Promise.all(files.map(async (file) => new Uint8Array(await readFile(file))));
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const results = await Promise.all(documents.map((bytes) => pool.extract(bytes, { ocr })));
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  // CPU time of all threads: on a shared machine it shows the cost independently of other load.
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const pages = results.reduce((sum, extraction) => sum + extraction.pageCount, 0);
  const sentences = results.reduce(
    (sum, extraction) => sum + extraction.blocks.reduce((count, block) => count + block.sentences.length, 0),
    0,
  );
  const perCpuSecond = (pages / cpuSeconds).toFixed(1);
  return `${pages} pages, ${sentences} sentences in ${seconds.toFixed(2)} s: ${(pages / seconds).toFixed(1)} pages/s (CPU ${cpuSeconds.toFixed(2)} s, ${perCpuSecond} pages per CPU-second)`;
}

async function main(): Promise<void> {
  const named = process.argv.slice(2).filter((argument) => !argument.startsWith("--"));
  const files = named.length > 0 ? named : defaultFiles;
  const ocr = process.argv.includes("--ocr");
  const size = os.availableParallelism();
  let sampledPeak = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    sampledPeak = Math.max(sampledPeak, process.memoryUsage().rss);
  }, 20);
  const pool = createPdfExtractorPool({ size });
  try {
    console.log(`${files.length} PDFs, ${size} workers, OCR ${ocr ? "on" : "off"}`);
    console.log(`cold (workers start): ${await round(pool, files, ocr)}`);
    console.log(`warm:                 ${await round(pool, files, ocr)}`);
    const peak = Math.max(sampledPeak, process.resourceUsage().maxRSS * 1024);
    console.log(`peak RSS ${(peak / 2 ** 20).toFixed(0)} MiB (main thread + workers, one process)`);
  } finally {
    clearInterval(sampler);
    await pool.close();
  }
}

await main();
