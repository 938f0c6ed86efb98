/** Runs a weighted query over the segments: terms by descending idf, with exact max-score pruning, then top k. */
import {
  accumulateTerm,
  accumulateTermIntoTouched,
  inverseDocumentFrequency,
  liveDocumentFrequency,
  type ScoringState,
} from "./postings-scorer.ts";
import { drainTopK, kthBestScore, type TopK } from "./top-k.ts";

interface PlannedTerm {
  term: string;
  weightedIdf: number;
  documentFrequency: number;
}

// A pruning check costs a pass over the touched passages: it is tried before each term while the
// postings still to read are at least twice that many (measured best of several policies).
const pruningWorkRatio = 2;
// Float32 accumulation may round a sum up by a few ulps: prune only with a clear margin.
const pruningMargin = 1 + 1e-5;

/**
 * The `limit` best live, allowed passages for `weights` (index term → query weight). Rare terms go
 * first; each term's contribution is below its weighted idf, so once the k-th best partial score
 * exceeds the sum of the remaining terms' weighted idf, untouched passages cannot enter the top k
 * and the remaining (long, common) postings only update passages already touched. Exact.
 */
export function rankTerms(
  state: ScoringState,
  weights: ReadonlyMap<string, number>,
  allowedDatasources: Uint8Array | null,
  limit: number,
): TopK {
  const liveCount = state.table.liveCount;
  const plan: PlannedTerm[] = [];
  for (const [term, weight] of weights) {
    const documentFrequency = liveDocumentFrequency(state, term);
    if (documentFrequency === 0) continue;
    plan.push({
      term,
      weightedIdf: weight * inverseDocumentFrequency(liveCount, documentFrequency),
      documentFrequency,
    });
  }
  plan.sort((left, right) => right.weightedIdf - left.weightedIdf || (left.term < right.term ? -1 : 1));
  let remainingBound = 0;
  let remainingPostings = 0;
  for (const { weightedIdf, documentFrequency } of plan) {
    remainingBound += weightedIdf;
    remainingPostings += documentFrequency;
  }
  let touchedCount = 0;
  let pruning = false;
  for (const { term, weightedIdf, documentFrequency } of plan) {
    if (!pruning && touchedCount >= limit && touchedCount * pruningWorkRatio <= remainingPostings) {
      pruning =
        kthBestScore(state.touched, touchedCount, state.scores, limit) > remainingBound * pruningMargin;
    }
    if (pruning) accumulateTermIntoTouched(state, term, weightedIdf);
    else touchedCount = accumulateTerm(state, term, weightedIdf, allowedDatasources, touchedCount);
    remainingBound -= weightedIdf;
    remainingPostings -= documentFrequency;
  }
  return drainTopK(state.touched, touchedCount, state.scores, limit);
}
