/**
 * `npm run bench`: every figure beside its floor or peer, measured in one run on one machine, printed as
 * one table and written to bench/results.json. `--quick` measures 10k passages only, once, as a smoke run.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { startPostgres } from "../service/testing/postgres.ts";
import { askRows } from "./bench/ask.ts";
import { attach, startService } from "./bench/bench-service.ts";
import { ourIngestion, pdfjsFloor, pdftotextFloor, poolAlone } from "./bench/ingestion.ts";
import { octavePdf } from "./bench/large-pdf.ts";
import { untilIdle } from "./bench/process-idle.ts";
import { evalDir } from "./bench/qa.ts";
import { ragDuringIngestion } from "./bench/rag-during-ingestion.ts";
import { qpdfTimes, sliceTimes } from "./bench/reference-pdf.ts";
import { idleHolder, label, scaleSection } from "./bench/scale.ts";
import { semanticRows } from "./bench/semantic.ts";
import { pgliteOf, readPassages } from "./bench/synthetic-corpus.ts";
import { type BenchRow, benchRow, formatTable, median, roundsPercentile } from "./bench/table.ts";
import { twoProcessRag } from "./bench/two-processes.ts";

const { values: flags } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    out: { type: "string" },
  },
});
const quick = flags.quick;
/**
 * How long the services idle before their memory is read a second time at the largest scale: V8 returns what a
 * load freed to the system only after about 100 s of quiet here. The quick run skips it.
 */
const idleSeconds = quick ? 0 : 150;
// A smoke run never overwrites the figures of a full one.
const out =
  flags.out ?? resolve(import.meta.dirname, quick ? "../bench/results-quick.json" : "../bench/results.json");
const rounds = quick ? 1 : 3;
const scales = quick ? [10_000] : [10_000, 100_000];
const started = performance.now();
const progress = (step: string) =>
  console.error(`[${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${step}`);
const rows: BenchRow[] = [];
const startLoad = loadavg();

const devPdfs = join(evalDir, "pdfs");
const octave = quick ? null : octavePdf();
const corpora = [
  { name: "dev corpus (3 PDFs)", paths: [devPdfs] },
  ...(octave ? [{ name: "octave.pdf", paths: [octave] }] : []),
];

let dev: { dataDir: string; assistantId: string } | null = null;
for (const corpus of corpora) {
  const fresh: number[] = [];
  const warm: number[] = [];
  const pool: number[] = [];
  const poolWithoutOcr: number[] = [];
  const pdfjsFresh: number[] = [];
  const pdfjsWarm: number[] = [];
  const poppler: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    progress(`ingestion ${corpus.name}, round ${round + 1}/${rounds}`);
    const ingested = await ourIngestion(corpus.paths);
    dev ??= ingested;
    fresh.push(ingested.pagesPerSecond.fresh);
    warm.push(ingested.pagesPerSecond.warm);
    pool.push(await poolAlone(corpus.paths, true));
    poolWithoutOcr.push(await poolAlone(corpus.paths, false));
    const pdfjs = await pdfjsFloor(corpus.paths);
    pdfjsFresh.push(pdfjs.fresh);
    pdfjsWarm.push(pdfjs.warm);
    poppler.push(await pdftotextFloor(corpus.paths));
  }
  const figure = `${corpus.name}, upload → ready`;
  rows.push(
    benchRow("ingestion", figure, "pages/s", median(fresh), "pdfjs getTextContent ×2", median(pdfjsFresh)),
    benchRow("ingestion", figure, "pages/s", median(fresh), "pdftotext -bbox-layout ×2", median(poppler)),
    benchRow(
      "ingestion",
      `${corpus.name}, upload → ready, the service's second corpus`,
      "pages/s",
      median(warm),
      "pdfjs ×2, second pass",
      median(pdfjsWarm),
    ),
    benchRow(
      "ingestion",
      `${corpus.name}, extraction pool alone (OCR on, no upload or storage)`,
      "pages/s",
      median(pool),
      "pdfjs getTextContent ×2",
      median(pdfjsFresh),
    ),
    benchRow(
      "ingestion",
      `${corpus.name}, extraction pool alone, OCR off`,
      "pages/s",
      median(poolWithoutOcr),
      "pdfjs getTextContent ×2",
      median(pdfjsFresh),
    ),
  );
}
if (!dev) throw new Error("no corpus was ingested");

progress("the embedding model: ingestion, ask and the vector index");
const devReady = rows.find((row) => row.figure === "dev corpus (3 PDFs), upload → ready");
rows.push(
  ...(await semanticRows([devPdfs], devReady?.ours ?? Number.NaN, {
    rounds,
    samples: quick ? 30 : 100,
    scale: quick ? 10_000 : 100_000,
  })),
);

const gnuplot = join(devPdfs, "gnuplot.pdf");
const warmPages = Array.from({ length: quick ? 20 : 50 }, (_, index) => 3 + index * 3);
/** Other new pages, sliced once the slicer has read the document ahead. */
const parsedPages = warmPages.map((page) => page + 1);
const developersReference = join(devPdfs, "developers-reference.pdf");
const sliceAfterStart: number[] = [];
const qpdfAfterStart: number[] = [];
const sliceCold: number[] = [];
const sliceReadingAhead: number[][] = [];
const sliceWarm: number[][] = [];
const qpdfCold: number[] = [];
const qpdfWarm: number[][] = [];
const qpdfParsed: number[][] = [];
const ragIngesting: number[][] = [];
const ragIdle: number[][] = [];
for (let round = 0; round < rounds; round += 1) {
  progress(`PDF slices and ask on the dev corpus, round ${round + 1}/${rounds}`);
  const service = await startService({ dataDir: dev.dataDir });
  try {
    const bench = await attach(service, dev.assistantId);
    // The process's first slice pays for starting the slicer; a document's first, on a running service, does not.
    sliceAfterStart.push(...(await sliceTimes(bench, "developers-reference.pdf", [50])));
    sliceCold.push(...(await sliceTimes(bench, "gnuplot.pdf", [150])));
    sliceReadingAhead.push(await sliceTimes(bench, "gnuplot.pdf", warmPages));
    await untilIdle(service.process.pid!);
    sliceWarm.push(await sliceTimes(bench, "gnuplot.pdf", parsedPages));
    if (round === rounds - 1) {
      rows.push(...(await askRows(bench, "dev corpus", { rounds, samples: quick ? 30 : 100 })));
    }
    const { during, idle } = await ragDuringIngestion(bench, [devPdfs], quick ? 30 : 100);
    ragIngesting.push(during);
    ragIdle.push(idle);
  } finally {
    await service.stop();
  }
  qpdfAfterStart.push(...(await qpdfTimes(developersReference, [50])));
  qpdfCold.push(...(await qpdfTimes(gnuplot, [150])));
  qpdfWarm.push(await qpdfTimes(gnuplot, warmPages));
  qpdfParsed.push(await qpdfTimes(gnuplot, parsedPages));
}
const roundsMedian = (samples: number[][]) => median(samples.map(median));
rows.push(
  benchRow(
    "PDF slice",
    "first of the process: developers-reference.pdf p. 50 after start",
    "ms",
    median(sliceAfterStart),
    "qpdf --empty --pages",
    median(qpdfAfterStart),
  ),
  benchRow(
    "PDF slice",
    "cold: first of a document (gnuplot.pdf p. 150), service running",
    "ms",
    median(sliceCold),
    "qpdf --empty --pages",
    median(qpdfCold),
  ),
  benchRow(
    "PDF slice",
    "new pages of that document while the slicer reads it ahead, p50",
    "ms",
    roundsMedian(sliceReadingAhead),
    "qpdf --empty --pages",
    roundsMedian(qpdfWarm),
  ),
  benchRow(
    "PDF slice",
    "warm: new pages, document parsed (service idle again), p50",
    "ms",
    roundsMedian(sliceWarm),
    "qpdf --empty --pages",
    roundsMedian(qpdfParsed),
  ),
);

for (const [name, fraction] of [
  ["p50", 0.5],
  ["p99", 0.99],
  ["max", 1],
] as const) {
  rows.push(
    benchRow(
      "ingestion",
      `rag on the dev corpus while it is ingested again into another assistant, ${name}`,
      "ms",
      roundsPercentile(ragIngesting, fraction),
      "the same requests, service idle",
      roundsPercentile(ragIdle, fraction),
    ),
  );
}

const seed = await readPassages(pgliteOf(dev.dataDir), dev.assistantId);
const postgres = await startPostgres();
try {
  const memory = new Map<string, { miB: number; count: number }>();
  for (const count of scales) {
    progress(`retrieval and ask at ${label(count)}`);
    const result = await scaleSection({
      seed,
      count,
      databaseUrl: postgres.url,
      rounds,
      passes: quick ? 1 : 2,
      askSamples: quick ? 30 : 100,
      idleSeconds: count === scales.at(-1) ? idleSeconds : 0,
    });
    rows.push(...result.rows);
    for (const [holder, miB] of result.memoryMiB) memory.set(holder, { miB, count });
  }
  const largest = scales.at(-1)!;
  progress(`two service processes on PostgreSQL at ${label(largest)}`);
  const scaleOut = await twoProcessRag({
    databaseUrl: postgres.url,
    seed,
    count: largest,
    rounds,
    requests: quick ? 200 : 600,
    idleSeconds,
  });
  memory.set("service (PostgreSQL)", { miB: scaleOut.serviceGrowth.loaded, count: largest });
  if (scaleOut.serviceGrowth.idle !== null) {
    memory.set(idleHolder("service (PostgreSQL)", idleSeconds), {
      miB: scaleOut.serviceGrowth.idle,
      count: largest,
    });
  }
  const per100k = (holder: string) => {
    const measured = memory.get(holder)!;
    return (measured.miB * 100_000) / measured.count;
  };
  const figure = (holder: string) =>
    `${holder.includes(" idle") ? holder : `${holder} 1 s after loading`}: RSS growth per 100k passages (measured at ${label(memory.get(holder)!.count)})`;
  const services = ["service (PGlite)", "service (PostgreSQL)"].flatMap((holder) =>
    idleSeconds > 0 ? [holder, idleHolder(holder, idleSeconds)] : [holder],
  );
  for (const holder of services) {
    for (const peer of ["MiniSearch", "Orama"]) {
      rows.push(benchRow("memory", figure(holder), "MiB", per100k(holder), `${peer} heap`, per100k(peer)));
    }
  }
  rows.push(...scaleOut.rows);
} finally {
  postgres.stop();
}

progress("done");
console.log(formatTable(rows));
const machine = {
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model ?? "unknown",
  node: process.version,
  date: new Date().toISOString(),
  loadAverageAtStart: startLoad,
  loadAverageAtEnd: loadavg(),
  quick,
  rounds,
  minutes: Math.round((performance.now() - started) / 600) / 100,
};
mkdirSync(resolve(out, ".."), { recursive: true });
writeFileSync(out, `${JSON.stringify({ machine, rows }, null, 2)}\n`);
console.log(
  `\nwritten to ${out}; ratio = ours / floor (for pages/s and req/s above 1 is better, for ms and MiB below 1)`,
);
