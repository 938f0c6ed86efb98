/** One BM25 index per assistant, loaded from its snapshot and reconciled with the committed documents. */

import type { Logger } from "../logger.ts";
import type { StoredChange } from "../store/change-feed.ts";
import type { IndexedVectors } from "../store/passage-vectors.ts";
import type { Store } from "../store/store.ts";
import { type Bm25Index, createBm25Index, loadBm25Index } from "./bm25-index.ts";
import { createDenseIndex, type DenseIndex } from "./dense-index.ts";
import { createOnnxScan } from "./int8-scan.ts";
import type { IndexedPassage } from "./types.ts";
import { decodeVectors } from "./vector-codec.ts";

interface Entry {
  index: Bm25Index;
  /** Passage vectors of `denseModel`; null when no model was known as the entry loaded. */
  dense: DenseIndex | null;
  denseModel: string | null;
  /** A load of the vectors of a model that became known after the entry loaded. */
  denseLoading: Promise<DenseIndex> | null;
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

export interface VectorModel {
  model: string;
  dimensions: number;
}

export interface AssistantIndexOptions {
  /**
   * The embedding model whose vectors are searched, with their length; null for lexical only, or while
   * the length is not known yet (a model server is asked for it at start, and may not answer at once).
   */
  vectors: () => VectorModel | null;
}

export function createAssistantIndexes(
  store: Store,
  logger: Logger,
  options: AssistantIndexOptions = { vectors: () => null },
) {
  const entries = new Map<string, Promise<Entry>>();
  // One onnxruntime session scans the vectors of every assistant.
  const scan = createOnnxScan();

  function toDenseEntries(rows: readonly IndexedVectors[], dimensions: number) {
    return rows.map((row) => {
      const [vector] = decodeVectors(row.vectors, dimensions);
      if (!vector) throw new Error(`passage ${row.passageId} has no vector`);
      // A copy: the decoded view would keep the whole row (its sentences' vectors too) in memory.
      const own = { scale: vector.scale, values: vector.values.slice() };
      return { id: row.passageId, documentId: row.documentId, datasourceId: row.datasourceId, vector: own };
    });
  }

  async function loadDense(
    assistantId: string,
    vectors: VectorModel,
    keep: (documentId: string) => boolean = () => true,
  ): Promise<DenseIndex> {
    const dense = createDenseIndex(scan);
    for await (const batch of store.passageVectors.forAssistant(assistantId, vectors.model))
      dense.add(toDenseEntries(batch, vectors.dimensions).filter((row) => keep(row.documentId)));
    return dense;
  }

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
    const vectors = options.vectors();
    const entry: Entry = {
      index,
      dense: vectors ? await loadDense(assistantId, vectors) : null,
      denseModel: vectors?.model ?? null,
      denseLoading: null,
      documentIds: indexed,
      saveTimer: null,
    };
    const { added, removed } = await reconcile(assistantId, entry);
    logger.info("index loaded", {
      assistantId,
      passages: index.size,
      vectors: entry.dense?.size ?? null,
      fromSnapshot: snapshot !== null,
      added,
      removed,
      ms: Math.round(performance.now() - started),
    });
    return entry;
  }

  /** Brings the entry in line with the documents committed ready, whoever committed them. */
  async function reconcile(assistantId: string, entry: Entry): Promise<{ added: number; removed: number }> {
    const ready = new Set(await store.documents.readyDocumentIds(assistantId));
    const stale = [...entry.documentIds].filter((id) => !ready.has(id));
    const missing = [...ready].filter((id) => !entry.documentIds.has(id));
    for (const documentId of stale) {
      entry.index.removeDocument(documentId);
      entry.dense?.removeDocument(documentId);
    }
    if (missing.length > 0)
      for await (const batch of store.passages.forIndex(missing)) entry.index.add(batch);
    entry.documentIds = ready;
    if (stale.length > 0 || missing.length > 0) scheduleSave(assistantId, entry);
    return { added: missing.length, removed: stale.length };
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
    if (!(await store.snapshots.save(assistantId, { documentIds: [...entry.documentIds], data }))) {
      logger.info("index snapshot dropped: its assistant was deleted", { assistantId });
      return;
    }
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
    /** The assistant's passage vectors; null when the service runs lexical only. */
    async dense(assistantId: string): Promise<DenseIndex | null> {
      const entry = await entryFor(assistantId);
      const vectors = options.vectors();
      if (!vectors || entry.denseModel === vectors.model) return entry.dense;
      entry.denseLoading ??= loadDense(assistantId, vectors, (documentId) =>
        entry.documentIds.has(documentId),
      )
        .then((dense) => {
          entry.dense = dense;
          entry.denseModel = vectors.model;
          return dense;
        })
        .finally(() => {
          entry.denseLoading = null;
        });
      return entry.denseLoading;
    },
    /** Reads a document's stored vectors into its assistant's vector index (those another process wrote). */
    async loadDocumentVectors(assistantId: string, documentId: string): Promise<void> {
      const vectors = options.vectors();
      if (!vectors) return;
      const rows = await store.passageVectors.ofDocument(documentId, vectors.model);
      if (rows.length > 0) await this.addVectors(assistantId, rows);
    },
    /** Called after vectors are committed: from now on those passages are found by meaning too. */
    async addVectors(assistantId: string, rows: readonly IndexedVectors[]): Promise<void> {
      const vectors = options.vectors();
      if (!vectors || !entries.has(assistantId)) return;
      const entry = await entryFor(assistantId);
      // The load may have read past these rows before they were committed; adding one twice replaces it.
      // A failed load is reported to the question that started it, and tried again by the next.
      await entry.denseLoading?.catch(() => null);
      // An entry without this model's vectors reads them all when they are first searched.
      if (entry.denseModel !== vectors.model) return;
      entry.dense?.add(
        toDenseEntries(rows, vectors.dimensions).filter((row) => entry.documentIds.has(row.documentId)),
      );
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
      entry.dense?.removeDocument(documentId);
      void entry.denseLoading?.then((dense) => dense.removeDocument(documentId)).catch(() => null);
      scheduleSave(assistantId, entry);
    },
    /**
     * A change committed by any process sharing the database (this one included, so it must be idempotent).
     * Assistants whose index this process has not loaded are left alone: their load reads the database.
     */
    async applyChange(change: StoredChange): Promise<void> {
      if (!entries.has(change.assistant)) return;
      if (change.document === null) return this.forget(change.assistant);
      if (change.status === "ready") {
        const entry = await entryFor(change.assistant);
        // Already searchable: the change is a batch of its vectors, perhaps written by another process.
        if (entry.documentIds.has(change.document))
          return this.loadDocumentVectors(change.assistant, change.document);
        const passages = await store.passages.ofDocuments([change.document]);
        await this.addDocument(change.assistant, change.document, passages.map(toIndexedPassage));
      } else if (change.status === "deleted") {
        await this.removeDocument(change.assistant, change.document);
      }
      // Other statuses never follow "ready" (only deletion does), and the document being read here is
      // already indexed, ahead of its commit: removing it on a late progress update would hide it.
    },
    /** After missing some changes (the feed was down): reconciles every loaded index with the database. */
    async catchUp(): Promise<void> {
      for (const [assistantId, pending] of entries) {
        const entry = await pending.catch(() => null);
        if (entry) await reconcile(assistantId, entry);
      }
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
