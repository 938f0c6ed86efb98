/**
 * Gives ready documents their vectors, in the background: a document is searchable lexically as soon as
 * it is ready, and by meaning once its passages are embedded here. Vectors are committed a batch at a
 * time and keyed by passage, so a crash loses at most the batch in progress and never writes one twice;
 * the next start resumes with the passages still missing. Questions go ahead of this work (see the model).
 */
import type { AssistantIndexes } from "../index/assistant-indexes.ts";
import { encodeVectors, meanVector, quantize } from "../index/vector-codec.ts";
import type { Logger } from "../logger.ts";
import type { Store } from "../store/store.ts";
import type { PriorityEmbedder } from "./text-embedder.ts";

export interface SemanticIndexerOptions {
  store: Store;
  indexes: AssistantIndexes;
  embedder: PriorityEmbedder;
  logger: Logger;
  /** How often to look for work when nothing in this process said there is some (other processes' documents). */
  pollMs?: number;
  /**
   * True while this process reads documents: embedding then waits, so that a document becomes searchable
   * by words as soon as it would without the model (both want every core).
   */
  ingesting?: () => boolean;
}

/** A document whose embedding failed waits this long before it is tried again, doubling up to the longest. */
const firstRetryMs = 5000;
const longestRetryMs = 10 * 60_000;

/** Passages embedded and committed together: small enough that a question waits little behind a batch. */
const passagesPerBatch = 16;

/** A passage's sentences, one vector each in their order (the engine finds them by position), or its text. */
function sentenceTexts(passage: { text: string; sentences: readonly { text: string }[] }): string[] {
  return passage.sentences.length > 0 ? passage.sentences.map((sentence) => sentence.text) : [passage.text];
}

export function createSemanticIndexer(options: SemanticIndexerOptions) {
  const { store, indexes, embedder, logger } = options;
  const model = embedder.modelId;
  const stopping = new AbortController();
  let loop: Promise<void> | null = null;

  async function embedDocument(document: { id: string; assistantId: string }): Promise<void> {
    const started = performance.now();
    const missing = await store.passageVectors.missing(document.id, model);
    // The listing shows "0 of n" from the start, not nothing until the first batch is in.
    let embedded = await store.passageVectors.write(model, document.id, []);
    for (let start = 0; start < missing.length; start += passagesPerBatch) {
      await untilIngestionPauses();
      stopping.signal.throwIfAborted();
      const passages = await store.passages.byIds(
        document.assistantId,
        missing.slice(start, start + passagesPerBatch),
      );
      const texts = passages.map(sentenceTexts);
      const vectors = await embedder.embed(texts.flat(), stopping.signal, "passages");
      let offset = 0;
      const rows = passages.map((passage, index) => {
        const own = vectors.slice(offset, offset + texts[index]!.length);
        offset += own.length;
        const all = [meanVector(own, embedder.dimensions), ...own].map(quantize);
        return {
          passageId: passage.id,
          documentId: passage.documentId,
          assistantId: passage.assistantId,
          datasourceId: passage.datasourceId,
          vectors: encodeVectors(all, embedder.dimensions),
        };
      });
      embedded = await store.passageVectors.write(model, document.id, rows);
      await indexes.addVectors(document.assistantId, rows);
    }
    logger.info("document embedded", {
      documentId: document.id,
      passages: embedded,
      model,
      ms: Math.round(performance.now() - started),
    });
  }

  /** Documents whose embedding failed, left aside until `retryAt`, each time twice as long. */
  const failures = new Map<string, { count: number; retryAt: number }>();

  function failed(documentId: string, error: unknown): void {
    const count = (failures.get(documentId)?.count ?? 0) + 1;
    const delay = Math.min(firstRetryMs * 2 ** (count - 1), longestRetryMs);
    failures.set(documentId, { count, retryAt: Date.now() + delay });
    logger.error("embedding failed; trying the other documents first", {
      documentId,
      failures: count,
      retryInSeconds: Math.round(delay / 1000),
      error: String(error),
    });
  }

  async function untilIngestionPauses(): Promise<void> {
    while (options.ingesting?.() && !stopping.signal.aborted)
      await store.documentChanges.after(store.documentChanges.version, 1000, stopping.signal);
  }

  async function run(): Promise<void> {
    while (!stopping.signal.aborted) {
      const seen = store.documentChanges.version;
      const now = Date.now();
      const skipped = [...failures].filter(([, failure]) => failure.retryAt > now).map(([id]) => id);
      let document: { id: string; assistantId: string } | null = null;
      try {
        document = await store.passageVectors.nextDocument(model, skipped);
        if (document) {
          await embedDocument(document);
          failures.delete(document.id);
          continue;
        }
      } catch (error) {
        if (stopping.signal.aborted) return;
        if (document) failed(document.id, error);
        else logger.error("looking for documents to embed failed", { error: String(error) });
      }
      const nextRetry = Math.min(...[...failures.values()].map((failure) => failure.retryAt - Date.now()));
      const wait = Math.max(
        0,
        Math.min(options.pollMs ?? 5000, Number.isFinite(nextRetry) ? nextRetry : Infinity),
      );
      await store.documentChanges.after(seen, wait, stopping.signal);
    }
  }

  return {
    start(): void {
      loop ??= run().catch((error: unknown) =>
        logger.error("semantic indexer stopped", { error: String(error) }),
      );
    },
    async stop(): Promise<void> {
      stopping.abort();
      await loop;
    },
  };
}

export type SemanticIndexer = ReturnType<typeof createSemanticIndexer>;
