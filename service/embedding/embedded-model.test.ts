import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EmbeddedModel, loadEmbeddedModel } from "./embedded-model.ts";
import { testModelFolder } from "./testing/model.ts";

interface ReferenceRow {
  text: string;
  ids: number[];
  embedding: number[];
}

const reference = JSON.parse(
  readFileSync(join(import.meta.dirname, "reference-embeddings.json"), "utf8"),
) as {
  sentences: ReferenceRow[];
};

function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    aa += a[i]! * a[i]!;
    bb += b[i]! * b[i]!;
  }
  return dot / Math.sqrt(aa * bb);
}

describe("the embedded model", () => {
  let model: EmbeddedModel;
  beforeAll(async () => {
    model = await loadEmbeddedModel(testModelFolder());
  });
  afterAll(() => model.close());

  it("gives the embeddings a numpy forward pass over the published weights gives", async () => {
    const vectors = await model.embed(reference.sentences.map((row) => row.text));
    reference.sentences.forEach((row, index) => {
      expect(vectors[index]).toHaveLength(384);
      expect(1 - cosine(vectors[index]!, row.embedding)).toBeLessThan(1e-3);
    });
  });

  it("gives the same vector to a text alone and in a batch of longer ones", async () => {
    const text = "A man is eating food.";
    const [alone] = await model.embed([text]);
    const batch = await model.embed([
      "word ".repeat(300),
      text,
      "Another, longer sentence about something else.",
    ]);
    expect(1 - cosine(alone!, batch[1]!)).toBeLessThan(1e-5);
  });

  it("orders the model card's examples as sentence-transformers does", async () => {
    const [query, ...corpus] = await model.embed([
      "A man is eating pasta.",
      "A man is eating food.",
      "A man is eating a piece of bread.",
      "The girl is carrying a baby.",
      "A man is riding a horse.",
      "A woman is playing violin.",
      "Two men pushed carts through the woods.",
      "A man is riding a white horse on an enclosed ground.",
      "A monkey is playing drums.",
      "A cheetah is running behind its prey.",
    ]);
    const scores = corpus.map((vector) => cosine(query!, vector));
    const ranked = scores.map((score, index) => ({ score, index })).sort((a, b) => b.score - a.score);
    expect(
      ranked
        .slice(0, 2)
        .map((entry) => entry.index)
        .sort(),
    ).toEqual([0, 1]);
    expect(Math.max(...scores.slice(2))).toBeLessThan(0.3);
  });

  it("cuts a text longer than 256 tokens as sentence-transformers does, without failing", async () => {
    const [vector] = await model.embed(["configuration ".repeat(1000)]);
    expect(Math.hypot(...vector!)).toBeCloseTo(1, 5);
  });
});
