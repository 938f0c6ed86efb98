import { describe, expect, it } from "vitest";
import { createRandom } from "./testing/synthetic-corpus.ts";
import { decodeVectors, dot, encodeVectors, meanVector, quantize } from "./vector-codec.ts";

const dimensions = 384;

/** A unit vector in a uniformly random direction (normal components by Box–Muller, then normalised). */
function randomUnitVector(random: () => number, length = dimensions): Float32Array {
  const vector = new Float32Array(length);
  for (let i = 0; i < length; i++)
    vector[i] = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  return normalise(vector);
}

function normalise(vector: Float32Array): Float32Array {
  const norm = Math.hypot(...vector);
  return vector.map((value) => value / norm);
}

function cosine(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum / (Math.hypot(...a) * Math.hypot(...b));
}

/** The vector with one component raised to `largest` (then normalised), as the model's vectors have a few. */
function spiky(vector: Float32Array, at: number, largest = 0.25): Float32Array {
  const raised = vector.slice();
  raised[at] = largest * Math.sign(raised[at]! || 1) * 1.03;
  return normalise(raised);
}

/** A vector near `base` (cosine ~0.9), so the round trip is checked on high cosines too, not only ~0. */
function neighbour(base: Float32Array, random: () => number): Float32Array {
  const noise = randomUnitVector(random);
  return normalise(base.map((value, i) => value + 0.5 * noise[i]!));
}

describe("int8 vectors", () => {
  // Each component is rounded to 1/127 of the vector's largest, so a cosine's error is a sum of 384 small
  // rounding errors: its spread grows with the largest component. On the model's own vectors it measured
  // 3.7e-4 (root mean square) and 1.6e-3 at most; rankings only change between cosines that close.
  function cosineErrors(stored: readonly Float32Array[], random: () => number): number[] {
    const bytes = encodeVectors(stored.map(quantize), dimensions);
    expect(bytes.length).toBe(stored.length * (4 + dimensions));
    const decoded = decodeVectors(bytes, dimensions);
    expect(decoded).toHaveLength(stored.length);
    const errors: number[] = [];
    for (const [index, vector] of stored.entries()) {
      for (const question of [randomUnitVector(random), neighbour(vector, random), vector])
        errors.push(Math.abs(dot(question, decoded[index]!) - cosine(question, vector)));
    }
    return errors;
  }
  const rootMeanSquare = (values: readonly number[]) =>
    Math.sqrt(values.reduce((sum, value) => sum + value * value, 0) / values.length);

  it("keep cosines with a question within 1e-3 of the float ones, but for a few per thousand", () => {
    const random = createRandom(7);
    const errors = cosineErrors(
      Array.from({ length: 300 }, () => randomUnitVector(random)),
      random,
    );
    expect(errors.filter((error) => error < 1e-3).length / errors.length).toBeGreaterThan(0.99);
    expect(rootMeanSquare(errors)).toBeLessThan(4e-4);
    expect(Math.max(...errors)).toBeLessThan(2e-3);
  });

  it("keep cosines within a few 1e-3 for vectors with one large component, as the model's are", () => {
    const random = createRandom(17);
    const errors = cosineErrors(
      Array.from({ length: 300 }, (_, index) => spiky(randomUnitVector(random), index % dimensions)),
      random,
    );
    expect(rootMeanSquare(errors)).toBeLessThan(7e-4);
    expect(Math.max(...errors)).toBeLessThan(3e-3);
  });

  it("rank stored vectors as their float cosines do, wherever those differ by more than 5e-3", () => {
    const random = createRandom(13);
    const base = randomUnitVector(random);
    // Forty vectors at spread-out cosines with one question, as a passage list's candidates are.
    const stored = Array.from({ length: 40 }, (_, index) => {
      const noise = randomUnitVector(random);
      return normalise(base.map((value, i) => value + (0.1 + index * 0.05) * noise[i]!));
    });
    const decoded = decodeVectors(encodeVectors(stored.map(quantize), dimensions), dimensions);
    const question = normalise(base.map((value, i) => value + 0.3 * randomUnitVector(random)[i]!));
    const exact = stored.map((vector) => cosine(question, vector));
    const approximate = decoded.map((vector) => dot(question, vector));
    for (let a = 0; a < stored.length; a++)
      for (let b = 0; b < stored.length; b++)
        if (exact[a]! > exact[b]! + 5e-3) expect(approximate[a]!).toBeGreaterThan(approximate[b]!);
  });

  it("decode what was encoded even when the bytes sit at an offset in a larger buffer", () => {
    const random = createRandom(11);
    const vectors = [randomUnitVector(random), randomUnitVector(random)];
    const bytes = encodeVectors(vectors.map(quantize), dimensions);
    // As a database driver hands back a bytea: a view into a bigger, unaligned buffer.
    const padded = new Uint8Array(bytes.length + 3);
    padded.set(bytes, 1);
    const decoded = decodeVectors(padded.subarray(1, 1 + bytes.length), dimensions);
    vectors.forEach((vector, index) => {
      expect(Math.abs(dot(vector, decoded[index]!) - 1)).toBeLessThan(1e-3);
    });
  });

  it("refuse bytes whose length is not a whole number of vectors", () => {
    const random = createRandom(3);
    const bytes = encodeVectors([quantize(randomUnitVector(random))], dimensions);
    expect(() => decodeVectors(bytes.subarray(0, bytes.length - 1), dimensions)).toThrow(/not a multiple/);
    expect(() => decodeVectors(bytes, dimensions + 1)).toThrow(/not a multiple/);
    expect(decodeVectors(new Uint8Array(0), dimensions)).toEqual([]);
  });

  it("keep a zero vector as zeros instead of dividing by zero", () => {
    const decoded = decodeVectors(
      encodeVectors([quantize(new Float32Array(dimensions))], dimensions),
      dimensions,
    );
    expect(dot(randomUnitVector(createRandom(5)), decoded[0]!)).toBe(0);
  });
});

describe("a passage's vector from its sentences'", () => {
  it("is of unit length and points between the sentences", () => {
    const random = createRandom(19);
    for (const count of [1, 2, 5, 10]) {
      const sentences = Array.from({ length: count }, () => randomUnitVector(random));
      const mean = meanVector(sentences, dimensions);
      expect(Math.abs(Math.hypot(...mean) - 1), `${count} sentences`).toBeLessThan(1e-5);
      // Closer to each of its sentences than an unrelated direction is (~0 for random vectors in 384 dimensions).
      for (const sentence of sentences) expect(cosine(mean, sentence)).toBeGreaterThan(0.1);
    }
  });

  it("is the sentence's own vector for a single sentence", () => {
    const sentence = randomUnitVector(createRandom(23));
    const mean = meanVector([sentence], dimensions);
    expect(cosine(mean, sentence)).toBeCloseTo(1, 6);
  });
});
