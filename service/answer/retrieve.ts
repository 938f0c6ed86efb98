/**
 * The passages a question is answered from, for ask and rag alike: the lexical index's best and, when a
 * model is loaded, the vector index's best, fused by reciprocal rank (each list counts by position, not
 * by score, so two scores on different scales need no calibration).
 */
import type { EmbedPriority } from "../embedding/embedded-model.ts";
import type { TextEmbedder } from "../embedding/text-embedder.ts";
import type { WeightedTerm } from "../index/analyzer.ts";
import type { Bm25Index } from "../index/bm25-index.ts";
import type { DenseIndex } from "../index/dense-index.ts";
import type { SearchHit, SearchOptions } from "../index/types.ts";

export interface QuestionEmbedder extends TextEmbedder {
  embed(texts: readonly string[], signal?: AbortSignal, priority?: EmbedPriority): Promise<Float32Array[]>;
}

export interface SemanticSearch {
  dense: DenseIndex;
  embedder: QuestionEmbedder;
}

export interface RetrievedHit extends SearchHit {
  /** The lexical index's score, 0 when only the vectors found it. */
  lexical: number;
  /** The cosine of the passage with the question, null when no vector took part. */
  cosine: number | null;
}

export interface Retrieved {
  hits: RetrievedHit[];
  /** The question's vector, when a model took part. */
  vector: Float32Array | null;
}

/** Reciprocal rank fusion's constant: 60 is the value of its paper and of most systems using it. */
const fusionK = 60;
/** Each list is read this deep before fusing, so a passage second in one list and absent from the other counts. */
const depthFactor = 4;

export async function retrieve(
  lexical: Bm25Index,
  semantic: SemanticSearch | null,
  query: { text: string; terms: readonly WeightedTerm[] },
  options: SearchOptions & { signal?: AbortSignal },
): Promise<Retrieved> {
  const searchOptions: SearchOptions = {
    limit: semantic ? Math.max(options.limit * depthFactor, 50) : options.limit,
    ...(options.datasourceIds ? { datasourceIds: options.datasourceIds } : {}),
  };
  const lexicalHits = lexical.searchTerms(query.terms, searchOptions);
  if (!semantic || semantic.dense.size === 0) {
    const hits = lexicalHits
      .slice(0, options.limit)
      .map((hit) => ({ ...hit, lexical: hit.score, cosine: null }));
    return { hits, vector: null };
  }
  const [vector] = await semantic.embedder.embed([query.text], options.signal, "question");
  if (!vector) throw new Error("the model gave no vector for the question");
  const denseHits = semantic.dense.search(vector, searchOptions);
  const fused = new Map<string, number>();
  for (const hits of [lexicalHits, denseHits])
    hits.forEach((hit, rank) => {
      fused.set(hit.id, (fused.get(hit.id) ?? 0) + 1 / (fusionK + rank + 1));
    });
  const lexicalScore = new Map(lexicalHits.map((hit) => [hit.id, hit.score]));
  const cosine = new Map(denseHits.map((hit) => [hit.id, hit.score]));
  const hits = [...fused]
    .map(([id, score]) => ({ id, score, lexical: lexicalScore.get(id) ?? 0, cosine: cosine.get(id) ?? null }))
    .sort((a, b) => b.score - a.score)
    .slice(0, options.limit);
  return { hits, vector };
}
