/** One BM25 index per assistant, loaded from its snapshot and reconciled with the committed documents. */
import type { Logger } from "../logger.ts";
import type { Store } from "../store/store.ts";
import { type Bm25Index, createBm25Index, loadBm25Index } from "./bm25-index.ts";
import type { IndexedPassage } from "./types.ts";

interface Entry {
  index: Bm25Index;
  documentIds: Set<string>;
  saveTimer: NodeJS.Timeout | null;
}

/** A snapshot is written this long after the last change, so a burst of documents costs one write. */
const saveDelayMs = 1500;

export function toIndexedPassage(passage: {
  id: string;
  datasourceId: string;
  documentId: string;
  text: string;
  title: string;
  heading: string;
}): IndexedPassage {
  return {
    id: passage.id,
    datasourceId: passage.datasourceId,
    documentId: passage.documentId,
    text: passage.text,
    title: passage.title,
    heading: passage.heading,
  };
}

export function createAssistantIndexes(store: Store, logger: Logger) {
  const entries = new Map<string, Promise<Entry>>();

  async function load(assistantId: string): Promise<Entry> {
    const started = performance.now();
    const snapshot = await store.snapshots.load(assistantId);
    let index = createBm25Index();
    let indexed = new Set<string>();
    if (snapshot) {
      try {
        index = loadBm25Index(snapshot.data);
        indexed = new Set(snapshot.documentIds);
      } catch (error) {
        logger.warn("index snapshot unusable; rebuilding from passages", {
          assistantId,
          error: String(error),
        });
      }
    }
    const ready = new Set(await store.documents.readyDocumentIds(assistantId));
    const stale = [...indexed].filter((id) => !ready.has(id));
    const missing = [...ready].filter((id) => !indexed.has(id));
    for (const documentId of stale) index.removeDocument(documentId);
    if (missing.length > 0) for await (const batch of store.passages.forIndex(missing)) index.add(batch);
    const entry: Entry = { index, documentIds: ready, saveTimer: null };
    if (stale.length > 0 || missing.length > 0) scheduleSave(assistantId, entry);
    logger.info("index loaded", {
      assistantId,
      passages: index.size,
      fromSnapshot: snapshot !== null,
      added: missing.length,
      removed: stale.length,
      ms: Math.round(performance.now() - started),
    });
    return entry;
  }

  function entryFor(assistantId: string): Promise<Entry> {
    let entry = entries.get(assistantId);
    if (!entry) {
      entry = load(assistantId);
      entries.set(assistantId, entry);
      entry.catch(() => entries.delete(assistantId));
    }
    return entry;
  }

  async function save(assistantId: string, entry: Entry): Promise<void> {
    entry.saveTimer = null;
    const started = performance.now();
    const data = entry.index.serialize();
    await store.snapshots.save(assistantId, { documentIds: [...entry.documentIds], data });
    logger.info("index snapshot saved", {
      assistantId,
      documents: entry.documentIds.size,
      passages: entry.index.size,
      bytes: data.byteLength,
      ms: Math.round(performance.now() - started),
    });
  }

  function scheduleSave(assistantId: string, entry: Entry): void {
    if (entry.saveTimer) clearTimeout(entry.saveTimer);
    entry.saveTimer = setTimeout(() => {
      save(assistantId, entry).catch((error: unknown) =>
        logger.error("index snapshot save failed", { assistantId, error: String(error) }),
      );
    }, saveDelayMs);
  }

  return {
    async get(assistantId: string): Promise<Bm25Index> {
      return (await entryFor(assistantId)).index;
    },
    /** Called after a document's passages are committed: from now on they are searchable. */
    async addDocument(
      assistantId: string,
      documentId: string,
      passages: readonly IndexedPassage[],
    ): Promise<void> {
      const entry = await entryFor(assistantId);
      if (entry.documentIds.has(documentId)) return;
      entry.index.add(passages);
      entry.documentIds.add(documentId);
      scheduleSave(assistantId, entry);
    },
    async removeDocument(assistantId: string, documentId: string): Promise<void> {
      const entry = await entryFor(assistantId);
      if (!entry.documentIds.delete(documentId)) return;
      entry.index.removeDocument(documentId);
      scheduleSave(assistantId, entry);
    },
    forget(assistantId: string): void {
      const entry = entries.get(assistantId);
      entries.delete(assistantId);
      void entry?.then((loaded) => loaded.saveTimer && clearTimeout(loaded.saveTimer));
    },
    /** Writes every pending snapshot now (on shutdown). */
    async flush(): Promise<void> {
      for (const [assistantId, pending] of entries) {
        const entry = await pending.catch(() => null);
        if (entry?.saveTimer) {
          clearTimeout(entry.saveTimer);
          await save(assistantId, entry);
        }
      }
    },
  };
}

export type AssistantIndexes = ReturnType<typeof createAssistantIndexes>;
