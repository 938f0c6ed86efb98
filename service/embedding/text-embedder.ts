/** What turns text into vectors, and what scores texts against a query: the embedded model or a model server. */

export interface TextEmbedder {
  /** Names the vectors it makes: vectors stored under another id are recomputed. */
  readonly modelId: string;
  readonly dimensions: number;
  /** One unit-length vector per text, in the order given. */
  embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]>;
}

/** A question's run goes ahead of waiting passage batches, so an answer never waits for indexing. */
export type EmbedPriority = "question" | "passages";

/** An embedder that may put a question ahead of passages (the embedded model does; a server ignores it). */
export interface PriorityEmbedder extends TextEmbedder {
  embed(texts: readonly string[], signal?: AbortSignal, priority?: EmbedPriority): Promise<Float32Array[]>;
}

export interface Reranker {
  readonly name: string;
  /** A relevance score per document, in the order given (higher is more relevant). */
  rerank(query: string, documents: readonly string[], signal?: AbortSignal): Promise<number[]>;
}
