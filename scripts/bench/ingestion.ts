/**
 * Ingestion throughput, upload to ready over HTTP, beside the floors of text extraction alone:
 * pdfjs-dist `getTextContent` on two worker threads, and poppler's `pdftotext -bbox-layout` two at a time.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { Worker } from "node:worker_threads";
import { collectFiles } from "../../service/cli/ingest-command.ts";
import { attach, ingest, startService } from "./bench-service.ts";

const run = promisify(execFile);
const parallel = 2;

export interface OurIngestion {
  pages: number;
  pagesPerSecond: number;
  /** The data folder of the stopped service, with the files ingested. */
  dataDir: string;
  assistantId: string;
}

/** One ingestion into a freshly started service with a new data folder. */
export async function ourIngestion(paths: string[]): Promise<OurIngestion> {
  const service = await startService();
  try {
    const bench = await attach(service);
    const { pages, seconds } = await ingest(bench, paths);
    return {
      pages,
      pagesPerSecond: pages / seconds,
      dataDir: service.dataDir,
      assistantId: bench.assistantId,
    };
  } finally {
    await service.stop();
  }
}

/** Pages per second of pdfjs reading every page's text, pages split between two worker threads. */
export async function pdfjsFloor(paths: string[]): Promise<number> {
  const files = collectFiles(paths);
  const started = performance.now();
  const counts = await Promise.all(
    Array.from(
      { length: parallel },
      (_, share) =>
        new Promise<number>((resolve, reject) => {
          const worker = new Worker(new URL("./pdfjs-text-worker.ts", import.meta.url), {
            workerData: { files, share, shares: parallel },
          });
          worker.once("message", resolve);
          worker.once("error", reject);
        }),
    ),
  );
  return counts.reduce((sum, count) => sum + count, 0) / ((performance.now() - started) / 1000);
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
