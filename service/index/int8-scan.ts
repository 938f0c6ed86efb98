/**
 * The dot product of a query with every row of an int8 matrix: the vector index's whole cost. onnxruntime
 * does it with SIMD on every core (100k × 384: ~8 ms against ~45 ms in JavaScript on 2 cores); it
 * quantizes the query to int8 too, which moves a cosine by at most ~2e-3, as storing the vectors did.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { quantize } from "./vector-codec.ts";

/** Scores of `rows` rows of `matrix` (before each row's own scale) against `query`. */
export type Int8Scan = (matrix: Int8Array, rows: number, query: Float32Array) => Promise<Float32Array>;

export const scanInJs: Int8Scan = async (matrix, rows, query) => {
  const dimensions = query.length;
  const scores = new Float32Array(rows);
  for (let row = 0; row < rows; row++) {
    const base = row * dimensions;
    let sum = 0;
    for (let column = 0; column < dimensions; column++) sum += query[column]! * matrix[base + column]!;
    scores[row] = sum;
  }
  return scores;
};

const graphPath = join(import.meta.dirname, "int8-gemv.onnx");

/** onnxruntime's scan; its session is made on the first search (the library loads with it). */
export function createOnnxScan(): Int8Scan {
  let session: Promise<{ run: Int8Scan }> | null = null;
  async function open() {
    const ort = await import("onnxruntime-node");
    const created = await ort.InferenceSession.create(readFileSync(graphPath));
    const run: Int8Scan = async (matrix, rows, query) => {
      const dimensions = query.length;
      const quantized = quantize(query);
      const output = await created.run({
        matrix: new ort.Tensor("int8", matrix.subarray(0, rows * dimensions), [rows, dimensions]),
        query: new ort.Tensor("int8", quantized.values, [dimensions, 1]),
      });
      const dots = output.dots?.data;
      if (!(dots instanceof Int32Array)) throw new Error("the int8 scan gave no int32 dots");
      const scores = new Float32Array(rows);
      for (let row = 0; row < rows; row++) scores[row] = dots[row]! * quantized.scale;
      return scores;
    };
    return { run };
  }
  return async (matrix, rows, query) => {
    if (rows === 0) return new Float32Array(0);
    session ??= open().catch((error: unknown) => {
      session = null;
      throw error;
    });
    return (await session).run(matrix, rows, query);
  };
}
