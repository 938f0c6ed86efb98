/** The small, growable segment that takes incremental adds until the next merge into the CSR segment. */

/** One field's terms of a passage and the weight each occurrence counts for (BM25F). */
export interface WeightedField {
  terms: readonly string[];
  weight: number;
}

/**
 * Postings kept as one append-only log of typed arrays in ordinal order (read in order by a merge),
 * chained per term (head → next → … → tail) for queries: adds allocate nothing per term.
 */
export class MutableSegment {
  readonly termIds = new Map<string, number>();
  readonly terms: string[] = [];
  head = new Int32Array(1024);
  tail = new Int32Array(1024);
  /** Passages per term, removed ones included. */
  termPassageCount = new Int32Array(1024);
  postingTerm = new Uint32Array(8192);
  postingOrdinal = new Uint32Array(8192);
  postingFrequency = new Float32Array(8192);
  postingNext = new Int32Array(8192);
  postingCount = 0;
  passageCount = 0;
  /** Per-term weighted frequency of the passage being added; all zero in between. */
  private pending = new Float32Array(1024);
  private pendingTerms = new Uint32Array(256);

  /** Appends one passage; ordinals must be added in ascending order. */
  addPassage(ordinal: number, fields: readonly WeightedField[]): void {
    let distinct = 0;
    for (const { terms, weight } of fields) {
      if (!(weight > 0)) continue;
      if (distinct + terms.length > this.pendingTerms.length) {
        this.pendingTerms = grow(this.pendingTerms, 2 * (distinct + terms.length));
      }
      for (const term of terms) {
        const termId = this.termIdOf(term);
        if (this.pending[termId] === 0) this.pendingTerms[distinct++] = termId;
        this.pending[termId]! += weight;
      }
    }
    this.reservePostings(distinct);
    for (let index = 0; index < distinct; index++) {
      const termId = this.pendingTerms[index]!;
      const posting = this.postingCount++;
      this.postingTerm[posting] = termId;
      this.postingOrdinal[posting] = ordinal;
      this.postingFrequency[posting] = this.pending[termId]!;
      this.postingNext[posting] = -1;
      this.pending[termId] = 0;
      const last = this.tail[termId]!;
      if (last === -1) this.head[termId] = posting;
      else this.postingNext[last] = posting;
      this.tail[termId] = posting;
      this.termPassageCount[termId]!++;
    }
    this.passageCount++;
  }

  private termIdOf(term: string): number {
    let termId = this.termIds.get(term);
    if (termId === undefined) {
      termId = this.terms.length;
      if (termId === this.head.length) {
        this.head = grow(this.head, termId * 2);
        this.tail = grow(this.tail, termId * 2);
        this.termPassageCount = grow(this.termPassageCount, termId * 2);
        this.pending = grow(this.pending, termId * 2);
      }
      this.head[termId] = -1;
      this.tail[termId] = -1;
      this.terms.push(term);
      this.termIds.set(term, termId);
    }
    return termId;
  }

  private reservePostings(extra: number): void {
    const needed = this.postingCount + extra;
    if (needed <= this.postingOrdinal.length) return;
    const capacity = Math.max(needed, this.postingOrdinal.length * 2);
    this.postingTerm = grow(this.postingTerm, capacity);
    this.postingOrdinal = grow(this.postingOrdinal, capacity);
    this.postingFrequency = grow(this.postingFrequency, capacity);
    this.postingNext = grow(this.postingNext, capacity);
  }
}

type GrowableArray = Int32Array | Uint32Array | Float32Array;

function grow<T extends GrowableArray>(array: T, capacity: number): T {
  const next = new (array.constructor as new (length: number) => T)(capacity);
  next.set(array);
  return next;
}
