/**
 * The in-process peers, MiniSearch and Orama, over the same passages and fields as our index (title ×2,
 * heading ×1.5, text), each given PostgreSQL's English stop list and the Porter stemmer we use.
 */
import { readFileSync } from "node:fs";
import { create, insertMultiple, search } from "@orama/orama";
import MiniSearch from "minisearch";
import { stemmer } from "stemmer";
import type { CorpusPassage } from "./synthetic-corpus.ts";

const postgresStopWords = readFileSync("/usr/share/postgresql/15/tsearch_data/english.stop", "utf8")
  .split("\n")
  .map((word) => word.trim())
  .filter(Boolean);
const stopSet = new Set(postgresStopWords);
const boost = { title: 2, heading: 1.5 };

export interface PeerEngine {
  name: string;
  /** Ids of the best five, best first. */
  search(query: string): Promise<string[]>;
}

export async function createMiniSearch(passages: readonly CorpusPassage[]): Promise<PeerEngine> {
  const index = new MiniSearch<CorpusPassage>({
    fields: ["title", "heading", "text"],
    tokenize: (text) => text.split(/[^\p{L}\p{N}]+/u),
    processTerm: (term) => {
      const word = term.toLowerCase();
      return word === "" || stopSet.has(word) ? null : stemmer(word);
    },
    searchOptions: { boost },
  });
  await index.addAllAsync(passages as CorpusPassage[], { chunkSize: 2000 });
  return {
    name: "MiniSearch",
    search: async (query) =>
      index
        .search(query)
        .slice(0, 5)
        .map((result) => String(result.id)),
  };
}

export async function createOrama(passages: readonly CorpusPassage[]): Promise<PeerEngine> {
  const database = create({
    schema: { title: "string", heading: "string", text: "string" } as const,
    components: { tokenizer: { language: "english", stemming: true, stemmer, stopWords: postgresStopWords } },
  });
  await insertMultiple(
    database,
    passages.map(({ id, title, heading, text }) => ({ id, title, heading, text })),
    2000,
  );
  return {
    name: "Orama",
    search: async (query) => {
      const found = await search(database, { term: query, limit: 5, boost });
      return found.hits.map((hit) => hit.id);
    },
  };
}

/** Heap and array buffers in use after full collections (needs `node --expose-gc`). */
export function heapInUse(): number {
  if (typeof gc !== "function") throw new Error("run with node --expose-gc to measure peer memory");
  gc();
  gc();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}
