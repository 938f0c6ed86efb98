import { describe, expect, it } from "vitest";
import { createRandom } from "./testing/synthetic-corpus.ts";
import { drainTopK, kthBestScore } from "./top-k.ts";

describe("drainTopK", () => {
  it("returns the best candidates in order, earlier ordinals first on ties, and clears their scores", () => {
    const random = createRandom(3);
    const scores = new Float32Array(500);
    for (let ordinal = 0; ordinal < scores.length; ordinal++) scores[ordinal] = Math.floor(random() * 40);
    const candidates = Uint32Array.from({ length: 300 }, (_, index) => (index * 7) % 500);
    for (const limit of [1, 10, 299, 300, 1000]) {
      const expected = [...candidates]
        .sort((left, right) => scores[right]! - scores[left]! || left - right)
        .slice(0, limit);
      const expectedScores = expected.map((ordinal) => scores[ordinal]);
      const drained = scores.slice();
      const top = drainTopK(candidates, candidates.length, drained, limit);
      expect([...top.ordinals]).toEqual(expected);
      expect([...top.scores]).toEqual(expectedScores);
      expect(candidates.every((ordinal) => drained[ordinal] === 0)).toBe(true);
    }
  });

  it("returns nothing for no candidates or a limit of 0", () => {
    const scores = new Float32Array([1, 2]);
    expect(drainTopK(new Uint32Array([0, 1]), 0, scores, 5).ordinals.length).toBe(0);
    expect(drainTopK(new Uint32Array([0, 1]), 2, scores, 0).ordinals.length).toBe(0);
  });

  it("finds the k-th best score without disturbing the scores", () => {
    const scores = new Float32Array([5, 1, 9, 3, 7, 7]);
    const candidates = Uint32Array.from([0, 1, 2, 3, 4, 5]);
    expect(kthBestScore(candidates, 6, scores, 1)).toBe(9);
    expect(kthBestScore(candidates, 6, scores, 3)).toBe(7);
    expect(kthBestScore(candidates, 6, scores, 4)).toBe(5);
    expect(kthBestScore(candidates, 6, scores, 7)).toBe(0);
    expect([...scores]).toEqual([5, 1, 9, 3, 7, 7]);
  });
});
