/** A question's candidate sentences, every sentence of the passages read, scored by a reranker for the engine. */
import type { PassageWithSource } from "../domain.ts";
import type { Reranker } from "../embedding/text-embedder.ts";
import { sentenceKey } from "./engine.ts";

/** The reranker's score of each sentence, keyed by `sentenceKey`; throws what the reranker throws. */
export async function rerankSentences(
  reranker: Reranker,
  query: string,
  passages: readonly PassageWithSource[],
  signal?: AbortSignal,
): Promise<Map<string, number>> {
  const keys: string[] = [];
  const texts: string[] = [];
  for (const passage of passages)
    passage.sentences.forEach((sentence, index) => {
      keys.push(sentenceKey(passage.id, index));
      texts.push(sentence.text);
    });
  if (texts.length === 0) return new Map();
  const scores = await reranker.rerank(query, texts, signal);
  return new Map(keys.map((key, index) => [key, scores[index] ?? Number.NEGATIVE_INFINITY]));
}
