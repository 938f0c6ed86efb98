/**
 * Unit vectors kept as int8 with one float32 scale each: a quarter of float32's memory, and a cosine
 * typically within ~4e-4 of the float one, at most ~2e-3 (each component is rounded to 1/127 of the
 * vector's largest); orders differing by more than that are kept.
 */

export interface QuantizedVector {
  scale: number;
  values: Int8Array;
}

export function quantize(vector: Float32Array): QuantizedVector {
  let largest = 0;
  for (const value of vector) largest = Math.max(largest, Math.abs(value));
  const scale = largest / 127 || 1;
  const values = new Int8Array(vector.length);
  for (let i = 0; i < vector.length; i++) values[i] = Math.round(vector[i]! / scale);
  return { scale, values };
}

/** The vectors one after another, each as its scale (float32, little-endian) then its values. */
export function encodeVectors(vectors: readonly QuantizedVector[], dimensions: number): Uint8Array {
  const stride = 4 + dimensions;
  const bytes = new Uint8Array(vectors.length * stride);
  const view = new DataView(bytes.buffer);
  vectors.forEach((vector, index) => {
    view.setFloat32(index * stride, vector.scale, true);
    bytes.set(new Uint8Array(vector.values.buffer, vector.values.byteOffset, dimensions), index * stride + 4);
  });
  return bytes;
}

export function decodeVectors(bytes: Uint8Array, dimensions: number): QuantizedVector[] {
  const stride = 4 + dimensions;
  if (bytes.length % stride !== 0)
    throw new Error(`vector bytes ${bytes.length} are not a multiple of ${stride}`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Array.from({ length: bytes.length / stride }, (_, index) => ({
    scale: view.getFloat32(index * stride, true),
    values: new Int8Array(bytes.buffer, bytes.byteOffset + index * stride + 4, dimensions),
  }));
}

/** The dot product of a float query with a stored vector: the cosine, both being of unit length. */
export function dot(query: Float32Array, vector: QuantizedVector): number {
  const values = vector.values;
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += query[i]! * values[i]!;
  return sum * vector.scale;
}

/** The normalised mean of vectors: a passage's vector from its sentences'. */
export function meanVector(vectors: readonly Float32Array[], dimensions: number): Float32Array {
  const mean = new Float32Array(dimensions);
  for (const vector of vectors) for (let i = 0; i < dimensions; i++) mean[i]! += vector[i]!;
  let norm = 0;
  for (const value of mean) norm += value * value;
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < dimensions; i++) mean[i]! /= norm;
  return mean;
}
