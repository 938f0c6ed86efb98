import { describe, expect, it } from "vitest";
import { createDenseIndex } from "./dense-index.ts";
import { createRandom } from "./testing/synthetic-corpus.ts";
import { dot, quantize } from "./vector-codec.ts";

const dimensions = 64;

function randomUnitVector(random: () => number): Float32Array {
  const vector = new Float32Array(dimensions);
  for (let i = 0; i < dimensions; i++)
    vector[i] = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const norm = Math.hypot(...vector);
  return vector.map((value) => value / norm);
}

interface Passage {
  id: string;
  documentId: string;
  datasourceId: string;
  vector: Float32Array;
}

/** Passages in documents of ten passages, documents spread over three datasources. */
function makePassages(count: number, random: () => number): Passage[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `psg_${String(index).padStart(5, "0")}`,
    documentId: `doc_${Math.floor(index / 10)}`,
    datasourceId: `dts_${Math.floor(index / 10) % 3}`,
    vector: randomUnitVector(random),
  }));
}

function indexOf(passages: readonly Passage[]) {
  const index = createDenseIndex();
  index.add(passages.map((passage) => ({ ...passage, vector: quantize(passage.vector) })));
  return index;
}

/** The answer an exhaustive scan must give: every allowed passage scored as the index scores it, best first. */
function bruteForce(
  passages: readonly Passage[],
  query: Float32Array,
  limit: number,
  datasourceIds?: readonly string[],
): string[] {
  return passages
    .filter((passage) => !datasourceIds || datasourceIds.includes(passage.datasourceId))
    .map((passage) => ({ id: passage.id, score: dot(query, quantize(passage.vector)) }))
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
    .map((hit) => hit.id);
}

describe("the dense index", () => {
  const random = createRandom(42);
  const passages = makePassages(1000, random);
  const index = indexOf(passages);
  const queries = Array.from({ length: 20 }, () => randomUnitVector(random));

  it("returns exactly the k passages of highest cosine, best first, for any k", async () => {
    expect(index.size).toBe(1000);
    for (const limit of [1, 3, 10, 50, 200, 999, 1000, 5000]) {
      for (const query of queries) {
        const hits = await index.search(query, { limit });
        expect(hits.map((hit) => hit.id)).toEqual(bruteForce(passages, query, limit));
        const scores = hits.map((hit) => hit.score);
        expect(scores).toEqual([...scores].sort((a, b) => b - a));
      }
    }
  });

  it("scores a passage by its cosine with the question", async () => {
    const target = passages[123]!;
    const [best] = await index.search(target.vector, { limit: 1 });
    expect(best?.id).toBe(target.id);
    expect(best?.score).toBeCloseTo(1, 2);
  });

  it("finds only passages of the datasources asked for, and nothing for an empty list", async () => {
    for (const datasourceIds of [["dts_1"], ["dts_0", "dts_2"], ["dts_1", "dts_unknown"]]) {
      for (const limit of [5, 100]) {
        for (const query of queries.slice(0, 5)) {
          const hits = await index.search(query, { limit, datasourceIds });
          expect(hits.map((hit) => hit.id)).toEqual(bruteForce(passages, query, limit, datasourceIds));
          const allowed = new Set(datasourceIds);
          for (const hit of hits)
            expect(allowed.has(passages.find((passage) => passage.id === hit.id)!.datasourceId)).toBe(true);
        }
      }
    }
    expect(await index.search(queries[0]!, { limit: 10, datasourceIds: [] })).toEqual([]);
    expect(await index.search(queries[0]!, { limit: 10, datasourceIds: ["dts_unknown"] })).toEqual([]);
  });

  it("finds nothing of a removed document, and the rest as before", async () => {
    const local = indexOf(passages.slice(0, 100));
    const target = passages[25]!; // in doc_2
    expect((await local.search(target.vector, { limit: 1 }))[0]?.id).toBe(target.id);
    local.removeDocument("doc_2");
    expect(local.size).toBe(90);
    expect(local.has(target.id)).toBe(false);
    const remaining = passages.slice(0, 100).filter((passage) => passage.documentId !== "doc_2");
    for (const query of [target.vector, ...queries.slice(0, 5)]) {
      const hits = await local.search(query, { limit: 100 });
      expect(hits.map((hit) => hit.id)).toEqual(bruteForce(remaining, query, 100));
    }
    local.removeDocument("doc_unknown");
    expect(local.size).toBe(90);
  });

  it("keeps one entry per passage: adding a passage again replaces its vector", async () => {
    const local = indexOf(passages.slice(0, 30));
    const moved = passages[7]!;
    const elsewhere = randomUnitVector(random);
    local.add([{ ...moved, vector: quantize(elsewhere) }]);
    expect(local.size).toBe(30);
    expect(local.has(moved.id)).toBe(true);
    // Found by its new vector, not its old one, and only once.
    expect((await local.search(elsewhere, { limit: 1 }))[0]?.id).toBe(moved.id);
    const all = await local.search(moved.vector, { limit: 30 });
    expect(all.filter((hit) => hit.id === moved.id)).toHaveLength(1);
    expect(all[0]?.id).not.toBe(moved.id);
    expect(all.find((hit) => hit.id === moved.id)?.score).toBeCloseTo(
      dot(moved.vector, quantize(elsewhere)),
      5,
    );
    // Replaced within one batch, too: the last vector given wins.
    local.add([
      { ...moved, vector: quantize(moved.vector) },
      { ...moved, vector: quantize(elsewhere) },
    ]);
    expect(local.size).toBe(30);
    expect((await local.search(elsewhere, { limit: 1 }))[0]?.id).toBe(moved.id);
  });

  it("returns nothing from an empty index or for a limit of zero", async () => {
    expect(await createDenseIndex().search(queries[0]!, { limit: 10 })).toEqual([]);
    expect(await index.search(queries[0]!, { limit: 0 })).toEqual([]);
  });
});
