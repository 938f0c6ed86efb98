/**
 * BM25 index benchmark on a synthetic corpus (Zipf-like vocabulary, fixed seed): build, memory, query
 * latency, filtered queries, snapshot size and load time.
 * Run: node --expose-gc scripts/bench/index-alone.ts [--passages=100000] [--k1=0.9] [--b=0.4] [--english]
 * (--english makes Lucene's stop words the most frequent words, as in real English text.)
 * Times are wall clock, with the process CPU time beside them: on a shared machine the CPU time is
 * what the same run would take unloaded.
 */
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { englishStopWords } from "../../service/index/analyzer.ts";
import { createBm25Index, loadBm25Index } from "../../service/index/bm25-index.ts";
import { generateCorpus } from "../../service/index/testing/synthetic-corpus.ts";

const { values: flags } = parseArgs({
  options: {
    passages: { type: "string", default: "100000" },
    k1: { type: "string", default: "0.9" },
    b: { type: "string", default: "0.4" },
    english: { type: "boolean", default: false },
  },
});
const passageCount = Number(flags.passages);
const k1 = Number(flags.k1);
const b = Number(flags.b);
const queryCount = 1000;
const datasourceCount = 8;

interface Query {
  text: string;
  datasourceId: string;
}

interface Timing<T> {
  result: T;
  wallMs: number;
  cpuMs: number;
}

function timed<T>(run: () => T): Timing<T> {
  const cpuBefore = process.cpuUsage();
  const wallBefore = performance.now();
  const result = run();
  const wallMs = performance.now() - wallBefore;
  const cpu = process.cpuUsage(cpuBefore);
  return { result, wallMs, cpuMs: (cpu.user + cpu.system) / 1000 };
}

function memoryInUse(): number {
  if (gc === undefined) throw new Error("run with --expose-gc to measure memory");
  gc();
  gc();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

function percentiles(values: number[]): string {
  values.sort((left, right) => left - right);
  const at = (fraction: number) =>
    values[Math.min(values.length - 1, Math.floor(fraction * values.length))]!.toFixed(3);
  return `${at(0.5)} / ${at(0.95)} / ${at(0.99)}`;
}

function timeQueries(run: (query: Query) => void, queries: readonly Query[]): string {
  const timings = queries.map((query) => timed(() => run(query)));
  const wall = percentiles(timings.map((timing) => timing.wallMs));
  const cpu = percentiles(timings.map((timing) => timing.cpuMs));
  return `p50/p95/p99 ${wall} ms (CPU ${cpu})`;
}

const { passages, random } = generateCorpus({
  passages: passageCount,
  vocabulary: 50_000,
  wordsPerPassage: 80,
  passagesPerDocument: 20,
  datasources: datasourceCount,
  seed: 42,
  stopWordsFirst: flags.english,
});

/** Known-item style: `length` words of a random passage, distinct non-stop words or a consecutive run. */
function makeQueries(length: number, consecutive: boolean): Query[] {
  return Array.from({ length: queryCount }, () => {
    const target = passages[Math.floor(random() * passages.length)]!;
    const words = target.text.split(" ");
    let chosen: string[];
    if (consecutive) {
      const start = Math.floor(random() * Math.max(1, words.length - length));
      chosen = words.slice(start, start + length);
    } else {
      const distinct = [...new Set(words)].filter((word) => !englishStopWords.has(word));
      chosen = Array.from({ length }, () => distinct[Math.floor(random() * distinct.length)]!);
    }
    return { text: chosen.join(" "), datasourceId: target.datasourceId };
  });
}

const shortQueries = makeQueries(4, false);
const longQueries = makeQueries(16, true);
const memoryBefore = memoryInUse();
const build = timed(() => {
  const index = createBm25Index({ k1, b });
  index.add(passages);
  return index;
});
const index = build.result;
const indexBytes = memoryInUse() - memoryBefore;

// Warm up the JIT and the norms before timing.
for (const { text } of shortQueries.slice(0, 200)) index.search(text, { limit: 10 });
const search = ({ text }: Query) => index.search(text, { limit: 10 });
const searchFiltered = ({ text, datasourceId }: Query) =>
  index.search(text, { limit: 10, datasourceIds: [datasourceId] });

const report: [string, string][] = [
  ["corpus", `${index.size} passages, ${flags.english ? "English-like" : "plain Zipf"}, k1 ${k1}, b ${b}`],
  ["build", `${(build.wallMs / 1000).toFixed(2)} s (CPU ${(build.cpuMs / 1000).toFixed(2)} s)`],
  ["index memory", `${(indexBytes / 2 ** 20).toFixed(1)} MiB (heapUsed + arrayBuffers delta after gc)`],
  ["4-term queries", timeQueries(search, shortQueries)],
  ["4-term, 1 of 8 datasources", timeQueries(searchFiltered, shortQueries)],
  ["16-term queries", timeQueries(search, longQueries)],
  ["16-term, 1 of 8 datasources", timeQueries(searchFiltered, longQueries)],
];

const serialized = timed(() => index.serialize());
const snapshot = serialized.result;
const size = `${(snapshot.byteLength / 2 ** 20).toFixed(1)} MiB`;
report.push([
  "serialize",
  `${size} in ${serialized.wallMs.toFixed(0)} ms (CPU ${serialized.cpuMs.toFixed(0)})`,
]);
const loaded = timed(() => loadBm25Index(snapshot));
report.push(["load", `${loaded.wallMs.toFixed(0)} ms (CPU ${loaded.cpuMs.toFixed(0)})`]);
const same = shortQueries.every(
  (query) =>
    JSON.stringify(loaded.result.search(query.text, { limit: 10 })) === JSON.stringify(search(query)),
);
report.push(["loaded index answers the same", String(same)]);
report.push(["node, load average", `${process.version}, ${loadavg()[0]!.toFixed(1)}`]);

for (const [label, value] of report) console.log(`${label.padEnd(30)} ${value}`);
