/** Deterministic synthetic passages (Zipf-like vocabulary) shared by the tests and the benchmark. */
import type { IndexedPassage } from "../types.ts";

/** mulberry32: a tiny seeded PRNG, so every run sees the same corpus. */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

export interface CorpusOptions {
  passages: number;
  vocabulary: number;
  wordsPerPassage: number;
  passagesPerDocument: number;
  datasources: number;
  seed: number;
  /** Make the most frequent words English stop words, as in real text (where they are ~40% of tokens). */
  stopWordsFirst?: boolean;
}

export interface SyntheticCorpus {
  passages: IndexedPassage[];
  /** Draws a word with Zipf-like (1/rank) frequency. */
  drawWord: () => string;
  random: () => number;
}

// Lucene's English stop words, roughly by their frequency in English text.
const stopWordsByFrequency =
  "the of and to a in is that for it as was with be by on not this are at or but their they an if these such no into then there will".split(
    " ",
  );

const syllables = [
  "ka",
  "lo",
  "mi",
  "ne",
  "ru",
  "ta",
  "vo",
  "si",
  "pe",
  "du",
  "go",
  "fa",
  "zu",
  "be",
  "xi",
  "wo",
];

function makeWord(index: number): string {
  let word = "";
  let rest = index + 16;
  while (rest > 0) {
    word += syllables[rest % 16];
    rest = Math.floor(rest / 16);
  }
  return word;
}

export function generateCorpus(options: CorpusOptions): SyntheticCorpus {
  const random = createRandom(options.seed);
  const head = options.stopWordsFirst ? stopWordsByFrequency : [];
  const words = Array.from({ length: options.vocabulary }, (_, index) => head[index] ?? makeWord(index));
  const cumulative = new Float64Array(options.vocabulary);
  let total = 0;
  for (let rank = 0; rank < options.vocabulary; rank++) {
    total += 1 / (rank + 1);
    cumulative[rank] = total;
  }
  const drawWord = (): string => {
    const target = random() * total;
    let low = 0;
    let high = options.vocabulary - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (cumulative[middle]! < target) low = middle + 1;
      else high = middle;
    }
    return words[low]!;
  };
  const sentence = (count: number): string => Array.from({ length: count }, drawWord).join(" ");
  const passages: IndexedPassage[] = [];
  let title = "";
  for (let index = 0; index < options.passages; index++) {
    const documentIndex = Math.floor(index / options.passagesPerDocument);
    if (index % options.passagesPerDocument === 0) title = sentence(3 + Math.floor(random() * 4));
    const length = Math.max(1, Math.round(options.wordsPerPassage * (0.5 + random())));
    passages.push({
      id: `psg_${index}`,
      datasourceId: `ds_${documentIndex % options.datasources}`,
      documentId: `doc_${documentIndex}`,
      text: sentence(length),
      title,
      heading: sentence(1 + Math.floor(random() * 3)),
    });
  }
  return { passages, drawWord, random };
}
