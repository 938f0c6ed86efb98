/** Term-at-a-time BM25 over both segments: live document frequency, then accumulation into reused buffers. */
import type { CsrSegment } from "./csr-segment.ts";
import type { MutableSegment } from "./mutable-segment.ts";
import type { PassageTable } from "./passage-table.ts";

export interface ScoringState {
  base: CsrSegment;
  mutable: MutableSegment;
  table: PassageTable;
  /** k1 · (1 − b + b · length / avgdl) per ordinal. */
  norms: Float32Array;
  /** All zero between queries; a non-zero entry means "already in `touched`". */
  scores: Float32Array;
  touched: Uint32Array;
}

/** Passages containing `term` that are live, across both segments. */
export function liveDocumentFrequency(state: ScoringState, term: string): number {
  const { base, mutable, table } = state;
  let frequency = 0;
  const baseTerm = base.termIds.get(term);
  if (baseTerm !== undefined) {
    const start = base.offsets[baseTerm]!;
    const end = base.offsets[baseTerm + 1]!;
    frequency += end - start;
    if (table.deadCount > 0) {
      for (let posting = start; posting < end; posting++) {
        if (table.isDead(base.ordinals[posting]!)) frequency--;
      }
    }
  }
  const mutableTerm = mutable.termIds.get(term);
  if (mutableTerm !== undefined) {
    frequency += mutable.termPassageCount[mutableTerm]!;
    if (table.deadCount > 0) {
      for (
        let posting = mutable.head[mutableTerm]!;
        posting !== -1;
        posting = mutable.postingNext[posting]!
      ) {
        if (table.isDead(mutable.postingOrdinal[posting]!)) frequency--;
      }
    }
  }
  return frequency;
}

/**
 * Adds `weightedIdf · tf / (tf + norm)` (Lucene's BM25, without the constant k1 + 1 factor) for every
 * live, allowed passage containing `term`. Returns the new number of touched passages.
 */
export function accumulateTerm(
  state: ScoringState,
  term: string,
  weightedIdf: number,
  allowedDatasources: Uint8Array | null,
  touchedCount: number,
): number {
  const { base, mutable, table } = state;
  const checked = table.deadCount > 0 || allowedDatasources !== null;
  let count = touchedCount;
  const baseTerm = base.termIds.get(term);
  if (baseTerm !== undefined) {
    count = checked
      ? accumulateCsrChecked(state, baseTerm, weightedIdf, allowedDatasources, count)
      : accumulateCsr(state, baseTerm, weightedIdf, count);
  }
  const mutableTerm = mutable.termIds.get(term);
  if (mutableTerm === undefined) return count;
  const { postingOrdinal, postingFrequency, postingNext } = mutable;
  const { norms, scores, touched } = state;
  for (let posting = mutable.head[mutableTerm]!; posting !== -1; posting = postingNext[posting]!) {
    const ordinal = postingOrdinal[posting]!;
    if (checked && !isAllowed(table, ordinal, allowedDatasources)) continue;
    const frequency = postingFrequency[posting]!;
    const score = scores[ordinal]!;
    touched[count] = ordinal;
    count += score === 0 ? 1 : 0;
    scores[ordinal] = score + (weightedIdf * frequency) / (frequency + norms[ordinal]!);
  }
  return count;
}

// The CSR loops are the hot path: one without any per-posting check, and they record a passage in
// `touched` without a branch (it is written every time and kept only when its score was still 0).
function accumulateCsr(
  state: ScoringState,
  termId: number,
  weightedIdf: number,
  touchedCount: number,
): number {
  const { base, norms, scores, touched } = state;
  const { ordinals, frequencies } = base;
  const end = base.offsets[termId + 1]!;
  let count = touchedCount;
  for (let posting = base.offsets[termId]!; posting < end; posting++) {
    const ordinal = ordinals[posting]!;
    const frequency = frequencies[posting]!;
    const score = scores[ordinal]!;
    touched[count] = ordinal;
    count += score === 0 ? 1 : 0;
    scores[ordinal] = score + (weightedIdf * frequency) / (frequency + norms[ordinal]!);
  }
  return count;
}

function accumulateCsrChecked(
  state: ScoringState,
  termId: number,
  weightedIdf: number,
  allowedDatasources: Uint8Array | null,
  touchedCount: number,
): number {
  const { base, table, norms, scores, touched } = state;
  const { ordinals, frequencies } = base;
  const end = base.offsets[termId + 1]!;
  let count = touchedCount;
  for (let posting = base.offsets[termId]!; posting < end; posting++) {
    const ordinal = ordinals[posting]!;
    if (!isAllowed(table, ordinal, allowedDatasources)) continue;
    const frequency = frequencies[posting]!;
    const score = scores[ordinal]!;
    touched[count] = ordinal;
    count += score === 0 ? 1 : 0;
    scores[ordinal] = score + (weightedIdf * frequency) / (frequency + norms[ordinal]!);
  }
  return count;
}

/**
 * Like `accumulateTerm` but only for passages already touched (score ≠ 0): used once no passage
 * outside `touched` can still reach the top k. Touched passages passed the filters already.
 */
export function accumulateTermIntoTouched(state: ScoringState, term: string, weightedIdf: number): void {
  const { base, mutable, norms, scores } = state;
  const baseTerm = base.termIds.get(term);
  if (baseTerm !== undefined) {
    const { ordinals, frequencies } = base;
    const end = base.offsets[baseTerm + 1]!;
    for (let posting = base.offsets[baseTerm]!; posting < end; posting++) {
      const ordinal = ordinals[posting]!;
      const score = scores[ordinal]!;
      if (score === 0) continue;
      const frequency = frequencies[posting]!;
      scores[ordinal] = score + (weightedIdf * frequency) / (frequency + norms[ordinal]!);
    }
  }
  const mutableTerm = mutable.termIds.get(term);
  if (mutableTerm === undefined) return;
  const { postingOrdinal, postingFrequency, postingNext } = mutable;
  for (let posting = mutable.head[mutableTerm]!; posting !== -1; posting = postingNext[posting]!) {
    const ordinal = postingOrdinal[posting]!;
    const score = scores[ordinal]!;
    if (score === 0) continue;
    const frequency = postingFrequency[posting]!;
    scores[ordinal] = score + (weightedIdf * frequency) / (frequency + norms[ordinal]!);
  }
}

function isAllowed(table: PassageTable, ordinal: number, allowedDatasources: Uint8Array | null): boolean {
  if ((table.dead[ordinal >>> 5]! & (1 << (ordinal & 31))) !== 0) return false;
  return allowedDatasources === null || allowedDatasources[table.datasourceOrdinals[ordinal]!] === 1;
}

/** Lucene's BM25 idf: ln(1 + (N − df + 0.5) / (df + 0.5)); always positive. */
export function inverseDocumentFrequency(liveCount: number, documentFrequency: number): number {
  return Math.log(1 + (liveCount - documentFrequency + 0.5) / (documentFrequency + 0.5));
}
