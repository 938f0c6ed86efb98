import { describe, expect, it } from "vitest";
import { analyze, analyzeQuery, analyzerVersion } from "./analyzer.ts";
import { type Bm25Parameters, createBm25Index, IndexSnapshotError, loadBm25Index } from "./bm25-index.ts";
import { defaultBm25Parameters } from "./bm25-parameters.ts";
import { generateCorpus } from "./testing/synthetic-corpus.ts";
import type { IndexedPassage, SearchHit, SearchOptions } from "./types.ts";

/** Textbook BM25F over Maps and doubles, scoring and sorting every passage: the oracle. */
function referenceSearch(
  passages: readonly IndexedPassage[],
  query: string,
  options: SearchOptions,
  parameters: Bm25Parameters = defaultBm25Parameters,
): SearchHit[] {
  const { k1, b, fieldWeights } = parameters;
  const frequencies = passages.map((passage) => {
    const counts = new Map<string, number>();
    let length = 0;
    for (const [text, weight] of [
      [passage.text, fieldWeights.text],
      [passage.title, fieldWeights.title],
      [passage.heading, fieldWeights.heading],
    ] as const) {
      const terms = analyze(text);
      for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + weight);
      length += terms.length * weight;
    }
    return { passage, counts, length };
  });
  const averageLength = frequencies.reduce((sum, entry) => sum + entry.length, 0) / passages.length;
  const queryWeights = new Map<string, number>();
  for (const term of analyze(query)) queryWeights.set(term, (queryWeights.get(term) ?? 0) + 1);
  const documentFrequencies = new Map(
    [...queryWeights.keys()].map((term) => [
      term,
      frequencies.filter((entry) => entry.counts.has(term)).length,
    ]),
  );
  const scored: { id: string; score: number; order: number }[] = [];
  frequencies.forEach(({ passage, counts, length }, order) => {
    if (options.datasourceIds !== undefined && !options.datasourceIds.includes(passage.datasourceId)) return;
    let score = 0;
    let matched = false;
    for (const [term, weight] of queryWeights) {
      const frequency = counts.get(term);
      if (frequency === undefined) continue;
      const df = documentFrequencies.get(term)!;
      const idf = Math.log(1 + (passages.length - df + 0.5) / (df + 0.5));
      score += (weight * idf * frequency) / (frequency + k1 * (1 - b + (b * length) / averageLength));
      matched = true;
    }
    if (matched) scored.push({ id: passage.id, score, order });
  });
  scored.sort((left, right) => right.score - left.score || left.order - right.order);
  return scored.slice(0, options.limit).map(({ id, score }) => ({ id, score }));
}

function expectSameRanking(actual: SearchHit[], expected: SearchHit[]): void {
  expect(actual.map((hit) => hit.id)).toEqual(expected.map((hit) => hit.id));
  actual.forEach((hit, rank) => {
    const reference = expected[rank]!.score;
    expect(Math.abs(hit.score - reference) / reference).toBeLessThan(1e-4);
  });
}

function passage(id: string, text: string, extra: Partial<IndexedPassage> = {}): IndexedPassage {
  return { id, datasourceId: "ds_a", documentId: `doc_${id}`, text, title: "", heading: "", ...extra };
}

const corpus = generateCorpus({
  passages: 3000,
  vocabulary: 2000,
  wordsPerPassage: 40,
  passagesPerDocument: 12,
  datasources: 3,
  seed: 7,
});
const queries = Array.from({ length: 12 }, (_, index) =>
  Array.from({ length: [1, 4, 16][index % 3]! }, corpus.drawWord).join(" "),
);

describe("BM25 ranking", () => {
  it("matches a naive BM25F implementation: same top 10, scores within 1e-4", () => {
    const index = createBm25Index();
    index.add(corpus.passages);
    for (const query of queries) {
      expectSameRanking(
        index.search(query, { limit: 10 }),
        referenceSearch(corpus.passages, query, { limit: 10 }),
      );
    }
  });

  it("matches the naive implementation with k1 1.2, b 0.75 and custom field weights", () => {
    const parameters = { k1: 1.2, b: 0.75, fieldWeights: { text: 1, title: 3, heading: 0.5 } };
    const index = createBm25Index(parameters);
    const passages = corpus.passages.slice(0, 800);
    index.add(passages);
    for (const query of queries.slice(0, 6)) {
      const expected = referenceSearch(passages, query, { limit: 10 }, parameters);
      expectSameRanking(index.search(query, { limit: 10 }), expected);
    }
  });

  it("ranks the same whether passages arrive at once or in small batches between searches", () => {
    const atOnce = createBm25Index();
    atOnce.add(corpus.passages);
    const incremental = createBm25Index();
    for (let start = 0; start < corpus.passages.length; start += 37) {
      incremental.add(corpus.passages.slice(start, start + 37));
      incremental.search(queries[start % queries.length]!, { limit: 5 });
    }
    expect(incremental.size).toBe(atOnce.size);
    for (const query of queries) {
      expect(incremental.search(query, { limit: 10 })).toEqual(atOnce.search(query, { limit: 10 }));
    }
  });

  it("boosts a passage whose title or heading contains the query word", () => {
    const index = createBm25Index();
    index.add([
      passage("plain", "configure the proxy server settings"),
      passage("titled", "configure the server settings", { title: "Proxy guide" }),
      passage("headed", "configure the server settings", { heading: "Proxy" }),
    ]);
    const ids = index.search("proxy", { limit: 3 }).map((hit) => hit.id);
    expect(ids.indexOf("plain")).toBe(2);
    expect(ids).toContain("titled");
    expect(ids).toContain("headed");
  });

  it("finds other forms of a word and ignores stop words", () => {
    const index = createBm25Index();
    index.add([passage("p1", "The package was removed yesterday."), passage("p2", "Installing the package")]);
    expect(index.search("removing", { limit: 5 }).map((hit) => hit.id)).toEqual(["p1"]);
    expect(index.search("the removing of the", { limit: 5 })).toEqual(index.search("removing", { limit: 5 }));
  });

  it("finds hyphenated and dotted names however the user writes them", () => {
    const index = createBm25Index();
    index.add([
      passage("hyphen", "run apt-get to update the system"),
      passage("apart", "get the apt tool to update"),
      passage("dotted", "edit /etc/apt/sources.list first"),
    ]);
    expect(index.search("apt-get", { limit: 3 })[0]?.id).toBe("hyphen");
    expect(index.search("aptget", { limit: 3 }).map((hit) => hit.id)).toEqual(["hyphen"]);
    expect(index.search("sources list", { limit: 3 })[0]?.id).toBe("dotted");
  });

  it("returns nothing for an empty query, a stop-word query or a limit of 0", () => {
    const index = createBm25Index();
    index.add(corpus.passages.slice(0, 100));
    expect(index.search("", { limit: 10 })).toEqual([]);
    expect(index.search("the of and", { limit: 10 })).toEqual([]);
    expect(index.search(queries[1]!, { limit: 0 })).toEqual([]);
  });

  it("ignores query words the index has never seen", () => {
    const index = createBm25Index();
    index.add(corpus.passages.slice(0, 200));
    const query = queries[1]!;
    expect(index.search("zzzunknownword", { limit: 10 })).toEqual([]);
    expect(index.search(`${query} zzzunknownword`, { limit: 10 })).toEqual(
      index.search(query, { limit: 10 }),
    );
  });

  it("weights expansion terms passed to searchTerms", () => {
    const index = createBm25Index();
    index.add([
      passage("car", "a red car"),
      passage("auto", "a red automobile"),
      passage("bike", "a red bike"),
    ]);
    const hits = index.searchTerms([...analyzeQuery("car"), { term: "automobil", weight: 0.5 }], {
      limit: 5,
    });
    expect(hits.map((hit) => hit.id)).toEqual(["car", "auto"]);
    expect(hits[1]!.score).toBeCloseTo(hits[0]!.score / 2, 5);
    expect(index.documentFrequency("red")).toBe(3);
  });
});

describe("removing documents", () => {
  it("drops a document's passages at once and scores the rest as if it had never been added", () => {
    const index = createBm25Index();
    index.add(corpus.passages);
    const removed = "doc_3";
    const remaining = corpus.passages.filter((entry) => entry.documentId !== removed);
    const fresh = createBm25Index();
    fresh.add(remaining);
    index.removeDocument(removed);
    expect(index.size).toBe(remaining.length);
    for (const query of queries) {
      const hits = index.search(query, { limit: 10 });
      expect(hits.some((hit) => corpus.passages[Number(hit.id.slice(4))]!.documentId === removed)).toBe(
        false,
      );
      expectSameRanking(hits, fresh.search(query, { limit: 10 }));
    }
  });

  it("keeps ranking exactly after enough removals to trigger a merge", () => {
    const index = createBm25Index();
    index.add(corpus.passages);
    const removed = new Set(Array.from({ length: 40 }, (_, document) => `doc_${document * 5}`));
    for (const documentId of removed) index.removeDocument(documentId);
    const remaining = corpus.passages.filter((entry) => !removed.has(entry.documentId));
    expect(index.size).toBe(remaining.length);
    for (const query of queries.slice(0, 6)) {
      expectSameRanking(index.search(query, { limit: 10 }), referenceSearch(remaining, query, { limit: 10 }));
    }
  });

  it("replaces a passage re-added under the same id", () => {
    const index = createBm25Index();
    index.add([passage("p1", "old words here"), passage("p2", "other text")]);
    index.add([passage("p1", "new words here")]);
    expect(index.size).toBe(2);
    expect(index.search("old", { limit: 5 })).toEqual([]);
    expect(index.search("new", { limit: 5 }).map((hit) => hit.id)).toEqual(["p1"]);
  });
});

describe("datasource filter", () => {
  const index = createBm25Index();
  index.add(corpus.passages);
  const query = queries[4]!;
  const datasourceOf = new Map(corpus.passages.map((entry) => [entry.id, entry.datasourceId]));

  it("searches every datasource when none is given", () => {
    expect(index.search(query, { limit: 10 })).toEqual(
      index.search(query, { limit: 10, datasourceIds: undefined }),
    );
    const datasources = new Set(index.search(query, { limit: 30 }).map((hit) => datasourceOf.get(hit.id)));
    expect(datasources.size).toBeGreaterThan(1);
  });

  it("returns nothing for an empty list or unknown datasources", () => {
    expect(index.search(query, { limit: 10, datasourceIds: [] })).toEqual([]);
    expect(index.search(query, { limit: 10, datasourceIds: ["ds_unknown"] })).toEqual([]);
  });

  it("returns only passages of the chosen datasources, ranked as without the filter", () => {
    for (const datasourceIds of [["ds_1"], ["ds_0", "ds_2"], ["ds_2", "ds_unknown"]]) {
      const hits = index.search(query, { limit: 10, datasourceIds });
      expect(hits.length).toBe(10);
      expect(hits.every((hit) => datasourceIds.includes(datasourceOf.get(hit.id)!))).toBe(true);
      expectSameRanking(hits, referenceSearch(corpus.passages, query, { limit: 10, datasourceIds }));
    }
  });
});

describe("snapshots", () => {
  it("loads to an index with the same size and identical results", () => {
    const index = createBm25Index({ k1: 1.2, b: 0.75 });
    index.add(corpus.passages);
    index.removeDocument("doc_2");
    index.add([passage("late", "a passage added after the merge")]);
    const loaded = loadBm25Index(index.serialize());
    expect(loaded.size).toBe(index.size);
    expect(loaded.parameters).toEqual(index.parameters);
    for (const query of [...queries, "passage added"]) {
      for (const datasourceIds of [undefined, ["ds_1"]]) {
        expect(loaded.search(query, { limit: 10, datasourceIds })).toEqual(
          index.search(query, { limit: 10, datasourceIds }),
        );
      }
    }
  });

  it("loads from a Node Buffer that starts at an odd offset of a larger buffer", () => {
    for (const count of [3, 300]) {
      const index = createBm25Index();
      index.add(corpus.passages.slice(0, count));
      const bytes = index.serialize();
      const shifted = Buffer.concat([Buffer.alloc(3), bytes, Buffer.alloc(5)]).subarray(3, 3 + bytes.length);
      const query = corpus.passages[0]!.text;
      expect(loadBm25Index(shifted).search(query, { limit: 10 })).toEqual(index.search(query, { limit: 10 }));
    }
  });

  it("keeps accepting adds and removals after loading", () => {
    const loaded = loadBm25Index(createBm25Index().serialize());
    loaded.add(corpus.passages.slice(0, 50));
    loaded.removeDocument("doc_0");
    const fresh = createBm25Index();
    fresh.add(corpus.passages.slice(12, 50));
    expect(loaded.search(queries[1]!, { limit: 10 })).toEqual(fresh.search(queries[1]!, { limit: 10 }));
  });

  it("refuses a snapshot of an unknown version with a clear error", () => {
    const bytes = createBm25Index().serialize();
    new DataView(bytes.buffer).setUint32(4, 99, true);
    expect(() => loadBm25Index(bytes)).toThrow(IndexSnapshotError);
    expect(() => loadBm25Index(bytes)).toThrow(/version 99.*rebuild/);
    expect(() => loadBm25Index(new Uint8Array(64))).toThrow(/not a BM25 snapshot/);
  });

  it("refuses a snapshot whose terms came from another analyzer version", () => {
    const bytes = createBm25Index().serialize();
    const text = new TextDecoder("latin1").decode(bytes);
    const at = text.indexOf(`"analyzerVersion":${analyzerVersion}`) + '"analyzerVersion":'.length;
    bytes[at] = "9".charCodeAt(0);
    expect(() => loadBm25Index(bytes)).toThrow(/analyzer version 9.*rebuild/);
  });

  it("refuses a truncated snapshot", () => {
    const index = createBm25Index();
    index.add(corpus.passages.slice(0, 100));
    const bytes = index.serialize();
    expect(() => loadBm25Index(bytes.subarray(0, bytes.length - 8))).toThrow(IndexSnapshotError);
  });
});
