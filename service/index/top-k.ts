/** Top-k selection over accumulated scores with a bounded min-heap: O(n log k), no sort of all matches. */

export interface TopK {
  /** Passage ordinals, best first. */
  ordinals: Uint32Array;
  scores: Float32Array;
}

/** True when (scoreA, ordinalA) ranks below (scoreB, ordinalB): lower score, or equal score and added later. */
function ranksBelow(scoreA: number, ordinalA: number, scoreB: number, ordinalB: number): boolean {
  return scoreA < scoreB || (scoreA === scoreB && ordinalA > ordinalB);
}

/**
 * The `limit` best of `candidates[0..count)` by `scores[candidate]`, and resets those scores to 0 in
 * the same pass (the accumulator is reused by the next query). Ties go to the lower ordinal (the
 * passage added first), so results do not depend on the order candidates were touched in.
 */
export function drainTopK(candidates: Uint32Array, count: number, scores: Float32Array, limit: number): TopK {
  const capacity = Math.max(0, Math.min(limit, count));
  if (!(capacity > 0)) {
    for (let index = 0; index < count; index++) scores[candidates[index]!] = 0;
    return { ordinals: new Uint32Array(0), scores: new Float32Array(0) };
  }
  const heapOrdinals = new Uint32Array(capacity);
  const heapScores = new Float32Array(capacity);
  let size = 0;
  // The heap's minimum, cached: most candidates lose to it and need no heap access at all.
  let floorScore = Number.NEGATIVE_INFINITY;
  let floorOrdinal = 0;
  for (let index = 0; index < count; index++) {
    const ordinal = candidates[index]!;
    const score = scores[ordinal]!;
    scores[ordinal] = 0;
    if (size < capacity) {
      siftUp(heapOrdinals, heapScores, size, ordinal, score);
      size++;
    } else if (score > floorScore || (score === floorScore && ordinal < floorOrdinal)) {
      siftDown(heapOrdinals, heapScores, size, ordinal, score);
    } else {
      continue;
    }
    if (size === capacity) {
      floorScore = heapScores[0]!;
      floorOrdinal = heapOrdinals[0]!;
    }
  }
  // Pop the minimum repeatedly, filling from the back: the arrays end up best first.
  const ordinals = new Uint32Array(size);
  const sortedScores = new Float32Array(size);
  for (let end = size - 1; end >= 0; end--) {
    ordinals[end] = heapOrdinals[0]!;
    sortedScores[end] = heapScores[0]!;
    if (end > 0) siftDown(heapOrdinals, heapScores, end, heapOrdinals[end]!, heapScores[end]!);
  }
  return { ordinals, scores: sortedScores };
}

/** The `limit`-th best score among the candidates (a lower bound of the final k-th score); leaves scores as they are. */
export function kthBestScore(
  candidates: Uint32Array,
  count: number,
  scores: Float32Array,
  limit: number,
): number {
  if (limit <= 0 || count < limit) return 0;
  const heap = new Float32Array(limit);
  for (let index = 0; index < limit; index++) heap[index] = scores[candidates[index]!]!;
  heap.sort();
  // heap is sorted ascending, hence a valid min-heap; replace its root while candidates beat it.
  for (let index = limit; index < count; index++) {
    const score = scores[candidates[index]!]!;
    if (score <= heap[0]!) continue;
    let parent = 0;
    for (;;) {
      let child = 2 * parent + 1;
      if (child >= limit) break;
      if (child + 1 < limit && heap[child + 1]! < heap[child]!) child++;
      if (heap[child]! >= score) break;
      heap[parent] = heap[child]!;
      parent = child;
    }
    heap[parent] = score;
  }
  return heap[0]!;
}

function siftUp(
  ordinals: Uint32Array,
  scores: Float32Array,
  at: number,
  ordinal: number,
  score: number,
): void {
  let child = at;
  while (child > 0) {
    const parent = (child - 1) >> 1;
    if (!ranksBelow(score, ordinal, scores[parent]!, ordinals[parent]!)) break;
    ordinals[child] = ordinals[parent]!;
    scores[child] = scores[parent]!;
    child = parent;
  }
  ordinals[child] = ordinal;
  scores[child] = score;
}

/** Replaces the root of a heap of `size` entries with (ordinal, score) and restores the heap. */
function siftDown(
  ordinals: Uint32Array,
  scores: Float32Array,
  size: number,
  ordinal: number,
  score: number,
): void {
  let parent = 0;
  for (;;) {
    let child = 2 * parent + 1;
    if (child >= size) break;
    const right = child + 1;
    if (right < size && ranksBelow(scores[right]!, ordinals[right]!, scores[child]!, ordinals[child]!)) {
      child = right;
    }
    if (!ranksBelow(scores[child]!, ordinals[child]!, score, ordinal)) break;
    ordinals[parent] = ordinals[child]!;
    scores[parent] = scores[child]!;
    parent = child;
  }
  ordinals[parent] = ordinal;
  scores[parent] = score;
}
