/**
 * The one retrieval path of `ask` and `rag`: terms in, passages with their sources and scores out. A
 * follow-up favours the documents the turn before cited, without requiring them.
 */
import type { PassageWithSource } from "../domain.ts";
import type { WeightedTerm } from "../index/analyzer.ts";
import type { Retriever } from "../index/types.ts";
import type { RankedPassage } from "./engine.ts";

export interface PassageReader {
  byIds(assistantId: string, ids: readonly string[]): Promise<PassageWithSource[]>;
}

export interface RetrievalRequest {
  assistantId: string;
  terms: readonly WeightedTerm[];
  limit: number;
  datasourceIds?: readonly string[];
  /** Passages whose documents are favoured (a follow-up's previous citations). */
  favour?: readonly string[];
}

/** How much a favoured document's passage score is raised; enough to reorder near-ties, not to overrule. */
const favouredBoost = 0.3;

export async function retrieve(
  retriever: Retriever,
  passages: PassageReader,
  request: RetrievalRequest,
): Promise<RankedPassage[]> {
  const favour = request.favour ?? [];
  // A favoured document may hold a passage just below the cut; reading a few more lets it move up.
  const hits = retriever.searchTerms(request.terms, {
    limit: favour.length > 0 ? request.limit * 2 : request.limit,
    ...(request.datasourceIds ? { datasourceIds: request.datasourceIds } : {}),
  });
  const found = await passages.byIds(request.assistantId, [
    ...hits.map((hit) => hit.id),
    ...favour.filter((id) => !hits.some((hit) => hit.id === id)),
  ]);
  const byId = new Map(found.map((passage) => [passage.id, passage]));
  const favoured = new Set(favour.flatMap((id) => byId.get(id)?.documentId ?? []));
  const ranked = hits.flatMap((hit) => {
    const passage = byId.get(hit.id);
    if (!passage) return [];
    return [
      { passage, score: favoured.has(passage.documentId) ? hit.score * (1 + favouredBoost) : hit.score },
    ];
  });
  ranked.sort((a, b) => b.score - a.score);
  return ranked.slice(0, request.limit);
}

/** The inverse document frequency the engine weights question terms by, from the retriever's own counts. */
export function inverseDocumentFrequency(retriever: Retriever) {
  const count = retriever.size;
  return (term: string) => {
    const frequency = retriever.documentFrequency(term);
    return Math.log(1 + (count - frequency + 0.5) / (frequency + 0.5));
  };
}
