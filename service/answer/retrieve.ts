/**
 * The passages a question is answered from, for ask and rag alike: the lexical index's best and, when a
 * model is loaded, the vector index's best, fused by reciprocal rank (each list counts by position, not
 * by score, so two scores on different scales need no calibration). A model server that fails never
 * fails the question: it is answered from the lexical index alone.
 */
import { ModelServerError } from "../embedding/model-server-error.ts";
import type { PriorityEmbedder } from "../embedding/text-embedder.ts";
import type { WeightedTerm } from "../index/analyzer.ts";
import type { Bm25Index } from "../index/bm25-index.ts";
import type { DenseIndex } from "../index/dense-index.ts";
import type { SearchHit, SearchOptions } from "../index/types.ts";

export interface SemanticSearch {
  dense: DenseIndex;
  embedder: PriorityEmbedder;
}

/** A model server is configured but does not answer for now: questions go by words, and say so. */
export interface SemanticUnavailable {
  unavailable: string;
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
  /** Why a configured model took no part (its server is down, or passages still wait for vectors), for the asker. */
  fallback: string | null;
}

const unreachable = "The model server is unreachable; searching by words only";

/**
 * Below this cosine a passage is not found by meaning: every passage has some cosine with any question,
 * and without a floor a search would list unrelated ones (dev set, odd half: the same figures from 0 to 0.4).
 */
const denseFloor = 0.3;

/** Reciprocal rank fusion's constant: 60 is the value of its paper and of most systems using it. */
const fusionK = 60;
/** Each list is read this deep before fusing, so a passage second in one list and absent from the other counts. */
const depthFactor = 4;

export async function retrieve(
  lexical: Bm25Index,
  semantic: SemanticSearch | SemanticUnavailable | null,
  query: { text: string; terms: readonly WeightedTerm[] },
  options: SearchOptions & { signal?: AbortSignal },
): Promise<Retrieved> {
  // Vectors take part once every passage has one: while some are missing, fusing would favour the passages
  // embedded first over better ones still waiting (and their sentences over theirs).
  const usable =
    semantic && "dense" in semantic && semantic.dense.size > 0 && semantic.dense.size >= lexical.size
      ? semantic
      : null;
  const searchOptions: SearchOptions = {
    limit: usable ? Math.max(options.limit * depthFactor, 50) : options.limit,
    ...(options.datasourceIds ? { datasourceIds: options.datasourceIds } : {}),
  };
  const lexicalHits = lexical.searchTerms(query.terms, searchOptions);
  const lexicalOnly = (fallback: string | null): Retrieved => ({
    hits: lexicalHits.slice(0, options.limit).map((hit) => ({ ...hit, lexical: hit.score, cosine: null })),
    vector: null,
    fallback,
  });
  if (semantic && "unavailable" in semantic) return lexicalOnly(unreachable);
  if (semantic && "dense" in semantic && semantic.dense.size > 0 && !usable)
    return lexicalOnly(
      `Searching by words only until every passage is indexed by meaning (${semantic.dense.size} of ${lexical.size})`,
    );
  if (!usable) return lexicalOnly(null);
  let vector: Float32Array | undefined;
  try {
    [vector] = await usable.embedder.embed([query.text], options.signal, "question");
  } catch (error) {
    // The embedder in use logs its server's failures; the question goes on by words.
    if (error instanceof ModelServerError) return lexicalOnly(unreachable);
    throw error;
  }
  if (!vector) throw new Error("the model gave no vector for the question");
  const denseHits = (await usable.dense.search(vector, searchOptions)).filter(
    (hit) => hit.score >= denseFloor,
  );
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
  return { hits, vector, fallback: null };
}
