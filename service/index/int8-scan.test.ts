import { describe, expect, it } from "vitest";
import { createOnnxScan, scanInJs } from "./int8-scan.ts";
import { quantize } from "./vector-codec.ts";

function randomUnitVectors(count: number, dimensions: number, seed: number): Float32Array[] {
  let state = seed;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648 - 0.5;
  };
  return Array.from({ length: count }, () => {
    const vector = Float32Array.from({ length: dimensions }, next);
    const norm = Math.hypot(...vector);
    return vector.map((value) => value / norm);
  });
}

describe("the int8 scan", () => {
  const dimensions = 384;
  const rows = randomUnitVectors(2000, dimensions, 3).map(quantize);
  const matrix = new Int8Array(rows.length * dimensions);
  rows.forEach((row, index) => {
    matrix.set(row.values, index * dimensions);
  });
  const queries = randomUnitVectors(10, dimensions, 5);

  it("on onnxruntime gives every row the cosine the JavaScript scan gives, within the int8 query's error", async () => {
    const onnx = createOnnxScan();
    for (const query of queries) {
      const [exact, fast] = await Promise.all([
        scanInJs(matrix, rows.length, query),
        onnx(matrix, rows.length, query),
      ]);
      expect(fast).toHaveLength(rows.length);
      let worst = 0;
      rows.forEach((row, index) => {
        worst = Math.max(worst, Math.abs((fast[index]! - exact[index]!) * row.scale));
      });
      expect(worst).toBeLessThan(3e-3);
    }
  });

  it("scans only the rows asked for, and nothing of an empty matrix", async () => {
    const onnx = createOnnxScan();
    expect(await onnx(matrix, 10, queries[0]!)).toHaveLength(10);
    expect(await onnx(new Int8Array(0), 0, queries[0]!)).toHaveLength(0);
  });
});
