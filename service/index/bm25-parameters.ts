/** BM25F parameters: defaults (Lucene/Pyserini k1 0.9, b 0.4) and the checks every index applies. */

/** Multipliers of each field's term frequencies and length (BM25F-style). */
export interface FieldWeights {
  text: number;
  title: number;
  heading: number;
}

export interface Bm25Parameters {
  k1: number;
  b: number;
  fieldWeights: FieldWeights;
}

export interface Bm25IndexOptions {
  /** Term-frequency saturation; default 0.9. */
  k1?: number;
  /** Length normalization, 0 (none) to 1 (full); default 0.4. */
  b?: number;
  /** Default `{ text: 1, title: 2, heading: 1.5 }`: a title or heading word counts more than a body word. */
  fieldWeights?: FieldWeights;
}

export const defaultBm25Parameters: Bm25Parameters = {
  k1: 0.9,
  b: 0.4,
  fieldWeights: { text: 1, title: 2, heading: 1.5 },
};

/** Fills defaults and rejects values that would make scores meaningless (NaN, negative, b outside 0..1). */
export function resolveBm25Parameters(options: Bm25IndexOptions = {}): Bm25Parameters {
  const parameters: Bm25Parameters = {
    k1: options.k1 ?? defaultBm25Parameters.k1,
    b: options.b ?? defaultBm25Parameters.b,
    fieldWeights: { ...(options.fieldWeights ?? defaultBm25Parameters.fieldWeights) },
  };
  if (!(Number.isFinite(parameters.k1) && parameters.k1 >= 0)) {
    throw new RangeError(`BM25 k1 must be a finite number >= 0, got ${parameters.k1}`);
  }
  if (!(parameters.b >= 0 && parameters.b <= 1)) {
    throw new RangeError(`BM25 b must be between 0 and 1, got ${parameters.b}`);
  }
  for (const [field, weight] of Object.entries(parameters.fieldWeights)) {
    if (!(Number.isFinite(weight) && weight >= 0)) {
      throw new RangeError(`BM25 field weight "${field}" must be a finite number >= 0, got ${weight}`);
    }
  }
  return parameters;
}
