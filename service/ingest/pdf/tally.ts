/** The key with the largest weight in a tally (the first one on a tie), or `fallback` for an empty tally. */
export function heaviestKey(weights: ReadonlyMap<number, number>, fallback: number): number {
  let heaviest = fallback;
  let heaviestWeight = Number.NEGATIVE_INFINITY;
  for (const [key, weight] of weights) {
    if (weight > heaviestWeight) {
      heaviest = key;
      heaviestWeight = weight;
    }
  }
  return heaviest;
}
