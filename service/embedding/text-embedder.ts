/** What turns text into vectors, and what scores texts against a query: the embedded model or a model server. */

export interface TextEmbedder {
  /** Names the vectors it makes: vectors stored under another id are recomputed. */
  readonly modelId: string;
  readonly dimensions: number;
  /** One unit-length vector per text, in the order given. */
  embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]>;
}

export interface Reranker {
  readonly name: string;
  /** A relevance score per document, in the order given (higher is more relevant). */
  rerank(query: string, documents: readonly string[], signal?: AbortSignal): Promise<number[]>;
}
