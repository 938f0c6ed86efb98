/**
 * PDF slice latency of the service's slicer against `qpdf --empty --pages` (process start included) on the same
 * pages in the same run, with the main thread's worst timer lateness while the slicer worked.
 * Run alone: `node scripts/bench/slice-latency.ts` (on Node 20: `npx jiti scripts/bench/slice-latency.ts`).
 */
import { execFile } from "node:child_process";
import { createReadStream } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { createBlobStore } from "../../service/blobs.ts";
import { createPdfSlicer, sliceRange } from "../../service/pdf/pdf-slicer.ts";
import { temporaryDirectory } from "../../service/testing/temporary-directory.ts";
import { percentile } from "../eval-scoring.ts";
import { octavePdf } from "./large-pdf.ts";

const run = promisify(execFile);
const evalPdfs = resolve(import.meta.dirname, "../../../shared/eval/pdfs");
const warmSlices = 30;

interface Row {
  label: string;
  slicer: number;
  qpdf: number;
  /** Worst lateness of a 5 ms timer on the main thread while the slicer worked. */
  timerLateness: number;
}

/** Runs `work` while a 5 ms interval timer checks how late the main thread lets it fire. */
async function withLateness<Value>(work: () => Promise<Value>): Promise<{ value: Value; lateness: number }> {
  let worst = 0;
  let expected = performance.now() + 5;
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - expected);
    expected = now + 5;
  }, 5);
  try {
    return { value: await work(), lateness: worst };
  } finally {
    clearInterval(timer);
  }
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

async function qpdfSlice(path: string, page: number, pageCount: number, out: string): Promise<number> {
  const { start, end } = sliceRange(page, pageCount);
  return timed(() => run("qpdf", ["--empty", "--pages", path, `${start + 1}-${end + 1}`, "--", out]));
}

async function pageCountOf(path: string): Promise<number> {
  const { stdout } = await run("qpdf", ["--show-npages", path]);
  return Number(stdout.trim());
}

async function benchDocument(path: string, label: string): Promise<Row[]> {
  const directory = temporaryDirectory("cka-slice-bench-");
  const blobs = createBlobStore(join(directory, "blobs"));
  const { sha256 } = await blobs.write(createReadStream(path), Number.POSITIVE_INFINITY);
  const pageCount = await pageCountOf(path);
  const slicer = createPdfSlicer({ blobs });
  const qpdfOut = join(directory, "qpdf.pdf");
  const middle = Math.floor(pageCount / 2);
  try {
    // qpdf first: after the slicer's cold slice its worker parses the document, which would slow qpdf down.
    const qpdfCold = await qpdfSlice(path, middle, pageCount, qpdfOut);
    const cold = await withLateness(() => timed(() => slicer.slice(sha256, middle, pageCount)));
    // Let a background parse finish so "warm" means what it says: the document parsed, new pages.
    await new Promise((settle) => setTimeout(settle, 3000));
    const pages = Array.from({ length: warmSlices }, (_, index) => 1 + ((index * 7919) % pageCount));
    const slicerTimes: number[] = [];
    const warm = await withLateness(async () => {
      for (const page of pages) slicerTimes.push(await timed(() => slicer.slice(sha256, page, pageCount)));
    });
    const qpdfTimes: number[] = [];
    for (const page of pages) qpdfTimes.push(await qpdfSlice(path, page, pageCount, qpdfOut));
    const repeated = await timed(() => slicer.slice(sha256, middle, pageCount));
    const qpdfRepeated = await qpdfSlice(path, middle, pageCount, qpdfOut);
    return [
      { label: `${label}: cold`, slicer: cold.value, qpdf: qpdfCold, timerLateness: cold.lateness },
      {
        label: `${label}: warm p50 (n=${warmSlices})`,
        slicer: percentile(slicerTimes, 0.5),
        qpdf: percentile(qpdfTimes, 0.5),
        timerLateness: warm.lateness,
      },
      { label: `${label}: repeated slice`, slicer: repeated, qpdf: qpdfRepeated, timerLateness: 0 },
    ];
  } finally {
    await slicer.close();
  }
}

export async function sliceLatencyTable(): Promise<string> {
  const documents: { path: string; label: string }[] = [
    { path: join(evalPdfs, "gnuplot.pdf"), label: "gnuplot.pdf (311 p)" },
    { path: join(evalPdfs, "debian-reference.en.pdf"), label: "debian-reference (261 p)" },
  ];
  const octave = octavePdf();
  if (octave) documents.push({ path: octave, label: "octave.pdf (1,158 p)" });
  const rows: Row[] = [];
  for (const document of documents) rows.push(...(await benchDocument(document.path, document.label)));
  const header = `${"PDF slice".padEnd(40)} ${"slicer ms".padStart(10)} ${"qpdf ms".padStart(10)} ${"ratio".padStart(7)} ${"max timer late ms".padStart(18)}`;
  const lines = rows.map(
    (row) =>
      `${row.label.padEnd(40)} ${row.slicer.toFixed(2).padStart(10)} ${row.qpdf.toFixed(2).padStart(10)} ${(row.slicer / row.qpdf).toFixed(2).padStart(7)} ${row.timerLateness.toFixed(1).padStart(18)}`,
  );
  const load = `load average at the end: ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores`;
  return [header, ...lines, load].join("\n");
}

if (import.meta.filename === process.argv[1]) console.log(await sliceLatencyTable());
