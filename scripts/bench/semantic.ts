/**
 * The embedding model's costs: upload → ready with the model on beside it off, ready → every passage embedded
 * (pages/s), ask with the model beside without, a question's embedding, and the vector index at scale (a
 * search over 100k passages, and the memory their vectors take).
 */
import { loadEmbeddedModel } from "../../service/embedding/embedded-model.ts";
import { minilm } from "../../service/embedding/minilm.ts";
import { testModelFolder } from "../../service/embedding/testing/model.ts";
import { createDenseIndex } from "../../service/index/dense-index.ts";
import { createOnnxScan } from "../../service/index/int8-scan.ts";
import { quantize } from "../../service/index/vector-codec.ts";
import { askRows } from "./ask.ts";
import { attach, ingest, startService } from "./bench-service.ts";
import { answerable } from "./qa.ts";
import { type BenchRow, benchRow, median } from "./table.ts";

const modelEnvironment = () => ({
  CKA_EMBEDDINGS: "auto",
  CKA_EMBEDDING_MODEL_DIR: testModelFolder(),
  CKA_EMBEDDING_HUB_URL: "off",
});

/** Collects until freed typed arrays are released too (their memory goes back a moment after a collection). */
async function settle(): Promise<void> {
  const gc = globalThis.gc;
  if (!gc) throw new Error("run the bench with node --expose-gc (npm run bench does)");
  for (let pass = 0; pass < 4; pass++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A random unit vector from a seeded generator, so every run searches the same index. */
function randomUnitVectors(count: number, seed: number): Float32Array[] {
  let state = seed;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648 - 0.5;
  };
  return Array.from({ length: count }, () => {
    const vector = Float32Array.from({ length: minilm.dimensions }, next);
    const norm = Math.hypot(...vector);
    return vector.map((value) => value / norm);
  });
}

export async function semanticRows(
  paths: string[],
  lexicalReadyPagesPerSecond: number,
  options: { rounds: number; samples: number; scale: number },
): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const service = await startService({ env: modelEnvironment() });
  try {
    const bench = await attach(service);
    const ingested = await ingest(bench, paths);
    const readyAt = performance.now();
    for (;;) {
      const documents = await bench.admin.listDocuments(bench.assistantId);
      if (documents.every((document) => document.passages_embedded === document.passages)) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const embeddedSeconds = (performance.now() - readyAt) / 1000;
    rows.push(
      benchRow(
        "semantic",
        "dev corpus, upload → ready (lexical), model on",
        "pages/s",
        ingested.pages / ingested.seconds,
        "model off",
        lexicalReadyPagesPerSecond,
      ),
      benchRow(
        "semantic",
        "dev corpus, ready → every passage embedded",
        "pages/s",
        ingested.pages / embeddedSeconds,
        "-",
        null,
      ),
    );
    const onRows = await askRows(bench, "dev corpus, model on", {
      rounds: options.rounds,
      samples: options.samples,
    });
    rows.push(...onRows.map((row) => ({ ...row, section: "semantic" })));
  } finally {
    await service.stop();
  }

  const model = await loadEmbeddedModel(testModelFolder());
  try {
    const questionMs: number[] = [];
    for (let index = 0; index < options.samples; index += 1) {
      const started = performance.now();
      await model.embed([answerable[index % answerable.length]!.question], undefined, "question");
      questionMs.push(performance.now() - started);
    }
    rows.push(benchRow("semantic", "a question's embedding p50", "ms", median(questionMs), "-", null));
  } finally {
    await model.close();
  }

  await settle();
  const before = process.memoryUsage();
  const index = createDenseIndex(createOnnxScan());
  // Added a thousand at a time, as the semantic indexer and a load add them.
  for (let start = 0; start < options.scale; start += 1000) {
    const vectors = randomUnitVectors(Math.min(1000, options.scale - start), start + 7);
    index.add(
      vectors.map((vector, offset) => ({
        id: `psg_${start + offset}`,
        documentId: `doc_${Math.floor((start + offset) / 500)}`,
        datasourceId: "dts_bench",
        vector: quantize(vector),
      })),
    );
  }
  await settle();
  const after = process.memoryUsage();
  // What the index holds on the heap and in its typed arrays (the process's RSS also keeps freed garbage).
  const held = (after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers) / 1024 / 1024;
  const searchMs: number[] = [];
  for (const query of randomUnitVectors(options.samples, 11)) {
    const started = performance.now();
    await index.search(query, { limit: 50 });
    searchMs.push(performance.now() - started);
  }
  const label = `${Math.round(options.scale / 1000)}k passages`;
  rows.push(
    benchRow("semantic", `vector search, ${label}, top 50, p50`, "ms", median(searchMs), "-", null),
    benchRow("semantic", `vector index memory, ${label}`, "MiB", held, "-", null),
  );
  return rows;
}
