/**
 * Passage vectors of one assistant, searched exhaustively by cosine. Each vector is int8 with a scale
 * (384 bytes + 4), so 100k passages take ~40 MB; an exhaustive scan keeps recall exact, which an
 * approximate index would trade for speed this corpus size does not need.
 */
import { dot, type QuantizedVector } from "../embedding/vector-codec.ts";
import type { SearchHit, SearchOptions } from "./types.ts";

interface Entry {
  id: string;
  documentId: string;
  datasourceId: string;
  vector: QuantizedVector;
}

export interface DenseIndex {
  add(entries: readonly Entry[]): void;
  removeDocument(documentId: string): void;
  has(passageId: string): boolean;
  search(query: Float32Array, options: SearchOptions): SearchHit[];
  readonly size: number;
}

export function createDenseIndex(): DenseIndex {
  // In insertion order; a passage added again keeps its place with its new vector.
  const entries = new Map<string, Entry>();
  return {
    add(added) {
      for (const entry of added) entries.set(entry.id, entry);
    },
    removeDocument(documentId) {
      for (const [id, entry] of entries) if (entry.documentId === documentId) entries.delete(id);
    },
    has: (passageId) => entries.has(passageId),
    search(query, options) {
      const allowed = options.datasourceIds ? new Set(options.datasourceIds) : null;
      const best: SearchHit[] = [];
      let floor = Number.NEGATIVE_INFINITY;
      for (const entry of entries.values()) {
        if (allowed && !allowed.has(entry.datasourceId)) continue;
        const score = dot(query, entry.vector);
        if (best.length >= options.limit && score <= floor) continue;
        best.push({ id: entry.id, score });
        if (best.length > options.limit * 4) {
          best.sort((a, b) => b.score - a.score);
          best.length = options.limit;
          floor = best.at(-1)?.score ?? floor;
        }
      }
      return best.sort((a, b) => b.score - a.score).slice(0, options.limit);
    },
    get size() {
      return entries.size;
    },
  };
}
