/** A 100k-passage corpus for latency at scale: the dev passages repeated with shuffled words, so no two are equal. */
import { join } from "node:path";
import type { StoredPassage } from "../../service/domain.ts";
import { durableId } from "../../service/ids.ts";
import { openStore } from "../../service/store/store.ts";

/** Deterministic, so two runs measure the same corpus. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

export async function readPassages(dataDir: string): Promise<StoredPassage[]> {
  const store = await openStore({ pgliteDir: join(dataDir, "pglite") });
  try {
    const [assistant] = await store.assistants.list();
    const documents = await store.documents.readyDocumentIds(assistant!.id);
    return await store.passages.ofDocuments(documents);
  } finally {
    await store.close();
  }
}

/** Writes `count` passages derived from `seed` into a new assistant of the data dir; returns its id. */
export async function writeSyntheticCorpus(
  dataDir: string,
  seed: readonly StoredPassage[],
  count: number,
): Promise<string> {
  const store = await openStore({ pgliteDir: join(dataDir, "pglite") });
  try {
    const assistant = await store.assistants.create("Scale");
    const datasource = await store.assistants.datasource(assistant.id, "default");
    const next = random(42);
    const perDocument = 2000;
    for (let start = 0; start < count; start += perDocument) {
      const { document } = await store.documents.add({
        assistantId: assistant.id,
        datasourceId: datasource.id,
        fileName: `synthetic-${start / perDocument}.pdf`,
        sha256: `synthetic-${start}`,
        bytes: 1,
      });
      await store.documents.claimNext();
      const passages = Array.from(
        { length: Math.min(perDocument, count - start) },
        (_, offset): StoredPassage => {
          const original = seed[(start + offset) % seed.length]!;
          const words = original.text.split(" ");
          const cut = Math.floor(next() * words.length);
          const text = [...words.slice(cut), ...words.slice(0, cut)].join(" ");
          return {
            ...original,
            id: durableId("psg", assistant.id, start + offset),
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
          };
        },
      );
      await store.passages.commitDocument(document.id, passages, { title: null, pages: 1, warnings: [] });
    }
    return assistant.id;
  } finally {
    await store.close();
  }
}
