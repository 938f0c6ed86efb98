/** The immutable segment: postings in compressed-sparse-row form, rebuilt by merging in the mutable segment. */
import type { MutableSegment } from "./mutable-segment.ts";

/** Term `t` has postings `offsets[t] .. offsets[t + 1]` of `ordinals` (ascending) and `frequencies`. */
export interface CsrSegment {
  readonly termIds: ReadonlyMap<string, number>;
  readonly terms: readonly string[];
  readonly offsets: Uint32Array;
  readonly ordinals: Uint32Array;
  /** Field-weighted term frequencies (BM25F), hence floats. */
  readonly frequencies: Float32Array;
}

export function createCsrSegment(
  terms: readonly string[],
  offsets: Uint32Array,
  ordinals: Uint32Array,
  frequencies: Float32Array,
): CsrSegment {
  const termIds = new Map<string, number>();
  for (let termId = 0; termId < terms.length; termId++) termIds.set(terms[termId]!, termId);
  return { termIds, terms, offsets, ordinals, frequencies };
}

export const emptyCsrSegment: CsrSegment = createCsrSegment(
  [],
  new Uint32Array(1),
  new Uint32Array(0),
  new Float32Array(0),
);

/**
 * A new CSR segment holding the live postings of `base` then of `mutable`, renumbered by
 * `remap` (old ordinal → new ordinal, -1 for a removed passage). `remap` must keep the order of
 * ordinals, so postings stay sorted; terms left without postings are dropped.
 */
export function mergeSegments(base: CsrSegment, mutable: MutableSegment, remap: Int32Array): CsrSegment {
  const {
    terms: mergedTerms,
    baseCounts,
    baseTarget,
    mutableCounts,
    mutableTarget,
  } = countLivePostings(base, mutable, remap);
  const termCount = mergedTerms.length;
  const sizes = new Uint32Array(termCount);
  for (let termId = 0; termId < base.terms.length; termId++) {
    const target = baseTarget[termId]!;
    if (target >= 0) sizes[target] = baseCounts[termId]!;
  }
  for (let termId = 0; termId < mutable.terms.length; termId++) {
    const target = mutableTarget[termId]!;
    if (target >= 0) sizes[target] = sizes[target]! + mutableCounts[termId]!;
  }
  const offsets = new Uint32Array(termCount + 1);
  for (let termId = 0; termId < termCount; termId++) offsets[termId + 1] = offsets[termId]! + sizes[termId]!;

  const ordinals = new Uint32Array(offsets[termCount]!);
  const frequencies = new Float32Array(offsets[termCount]!);
  const cursor = offsets.slice(0, termCount);
  for (let termId = 0; termId < base.terms.length; termId++) {
    const target = baseTarget[termId]!;
    if (target < 0) continue;
    let write = cursor[target]!;
    for (let posting = base.offsets[termId]!; posting < base.offsets[termId + 1]!; posting++) {
      const ordinal = remap[base.ordinals[posting]!]!;
      if (ordinal < 0) continue;
      ordinals[write] = ordinal;
      frequencies[write++] = base.frequencies[posting]!;
    }
    cursor[target] = write;
  }
  // Mutable ordinals all follow base ordinals and the log is in ordinal order, so one sequential
  // pass appends every list in sorted order (walking the per-term chains would miss the cache).
  for (let posting = 0; posting < mutable.postingCount; posting++) {
    const ordinal = remap[mutable.postingOrdinal[posting]!]!;
    if (ordinal < 0) continue;
    const write = cursor[mutableTarget[mutable.postingTerm[posting]!]!]!++;
    ordinals[write] = ordinal;
    frequencies[write] = mutable.postingFrequency[posting]!;
  }
  return createCsrSegment(mergedTerms, offsets, ordinals, frequencies);
}

interface LiveCounts {
  /** Merged term list: live base terms in their order, then new live mutable terms. */
  terms: string[];
  baseCounts: Uint32Array;
  /** Base term id → merged term id, -1 when it has no live posting. */
  baseTarget: Int32Array;
  mutableCounts: Uint32Array;
  /** Mutable term id → merged term id, -1 when it has no live posting. */
  mutableTarget: Int32Array;
}

function countLivePostings(base: CsrSegment, mutable: MutableSegment, remap: Int32Array): LiveCounts {
  const baseCounts = new Uint32Array(base.terms.length);
  const baseTarget = new Int32Array(base.terms.length).fill(-1);
  const terms: string[] = [];
  const mergedIds = new Map<string, number>();
  for (let termId = 0; termId < base.terms.length; termId++) {
    let count = 0;
    for (let posting = base.offsets[termId]!; posting < base.offsets[termId + 1]!; posting++) {
      if (remap[base.ordinals[posting]!]! >= 0) count++;
    }
    baseCounts[termId] = count;
    if (count > 0) {
      baseTarget[termId] = terms.length;
      mergedIds.set(base.terms[termId]!, terms.length);
      terms.push(base.terms[termId]!);
    }
  }
  const mutableCounts = new Uint32Array(mutable.terms.length);
  for (let posting = 0; posting < mutable.postingCount; posting++) {
    if (remap[mutable.postingOrdinal[posting]!]! >= 0) mutableCounts[mutable.postingTerm[posting]!]!++;
  }
  const mutableTarget = new Int32Array(mutable.terms.length).fill(-1);
  for (let termId = 0; termId < mutable.terms.length; termId++) {
    if (mutableCounts[termId] === 0) continue;
    const term = mutable.terms[termId]!;
    let target = mergedIds.get(term);
    if (target === undefined) {
      target = terms.length;
      mergedIds.set(term, target);
      terms.push(term);
    }
    mutableTarget[termId] = target;
  }
  return { terms, baseCounts, baseTarget, mutableCounts, mutableTarget };
}
