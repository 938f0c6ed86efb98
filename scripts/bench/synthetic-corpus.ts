/**
 * Corpora at scale: the dev passages repeated with rotated words, so no two are equal, each remembering
 * the file and pages of the passage it came from so that hit@5 can be scored at any size.
 */
import { join } from "node:path";
import type { StoredPassage } from "../../service/domain.ts";
import { durableId } from "../../service/ids.ts";
import { openStore } from "../../service/store/store.ts";

/** What a peer indexes and what hit@5 scores, for one passage. */
export interface CorpusPassage {
  id: string;
  title: string;
  heading: string;
  text: string;
  /** The dev file and 1-based pages of the passage this one was made from. */
  fileName: string;
  pages: number[];
}

export interface SeedPassage {
  stored: StoredPassage;
  fileName: string;
  pages: number[];
}

export type StoreLocation = { databaseUrl?: string; pgliteDir: string };

export const pgliteOf = (dataDir: string): StoreLocation => ({ pgliteDir: join(dataDir, "pglite") });

/** openStore ignores the PGlite folder when given a PostgreSQL URL. */
export const postgresAt = (databaseUrl: string): StoreLocation => ({ databaseUrl, pgliteDir: "" });

/** Deterministic, so two runs measure the same corpus. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const pagesOf = (passage: StoredPassage): number[] => [
  ...new Set(
    passage.sentences.flatMap((sentence) => (sentence.spans ?? []).map((span) => span.page_index + 1)),
  ),
];

/** The ready passages of the first assistant in a data folder, with their file names. */
export async function readPassages(location: StoreLocation, assistantId: string): Promise<SeedPassage[]> {
  const store = await openStore(location);
  try {
    const fileNames = new Map((await store.documents.list(assistantId)).map((row) => [row.id, row.fileName]));
    const documents = await store.documents.readyDocumentIds(assistantId);
    return (await store.passages.ofDocuments(documents)).map((stored) => ({
      stored,
      fileName: fileNames.get(stored.documentId)!,
      pages: pagesOf(stored),
    }));
  } finally {
    await store.close();
  }
}

/** The passages `writeSyntheticCorpus` writes for `count`, without writing them (for the in-process peers). */
export function syntheticPassages(
  seed: readonly SeedPassage[],
  count: number,
  assistantId = "asst_synthetic",
) {
  const next = random(42);
  return Array.from({ length: count }, (_, index): CorpusPassage & { original: StoredPassage } => {
    const original = seed[index % seed.length]!;
    const words = original.stored.text.split(" ");
    const cut = Math.floor(next() * words.length);
    return {
      id: durableId("psg", assistantId, index),
      title: original.stored.title,
      heading: original.stored.heading,
      text: [...words.slice(cut), ...words.slice(0, cut)].join(" "),
      fileName: original.fileName,
      pages: original.pages,
      original: original.stored,
    };
  });
}

/** Writes `count` passages derived from `seed` into a new assistant; returns its id and the passages. */
export async function writeSyntheticCorpus(
  location: StoreLocation,
  seed: readonly SeedPassage[],
  count: number,
): Promise<{ assistantId: string; passages: CorpusPassage[] }> {
  const store = await openStore(location);
  try {
    const assistant = await store.assistants.create("Scale");
    const datasource = await store.assistants.datasource(assistant.id, "default");
    const corpus = syntheticPassages(seed, count, assistant.id);
    const perDocument = 2000;
    for (let start = 0; start < count; start += perDocument) {
      const { document } = await store.documents.add({
        assistantId: assistant.id,
        datasourceId: datasource.id,
        fileName: `synthetic-${start / perDocument}.pdf`,
        sha256: `synthetic-${assistant.id}-${start}`,
        bytes: 1,
      });
      await store.documents.claimNext();
      const passages = corpus.slice(start, start + perDocument).map(
        ({ id, text, original }, offset): StoredPassage => ({
          ...original,
          id,
          documentId: document.id,
          assistantId: assistant.id,
          datasourceId: datasource.id,
          ordinal: offset,
          text,
          sentences: [
            {
              text,
              start: 0,
              end: text.length,
              ...(original.sentences[0]?.spans ? { spans: original.sentences[0].spans } : {}),
            },
          ],
        }),
      );
      await store.passages.commitDocument(document.id, passages, { title: null, pages: 1, warnings: [] });
    }
    return {
      assistantId: assistant.id,
      passages: corpus.map(({ original: _original, ...passage }) => passage),
    };
  } finally {
    await store.close();
  }
}
