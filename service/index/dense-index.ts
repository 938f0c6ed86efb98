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
  const byId = new Map<string, Entry>();
  let entries: Entry[] = [];
  return {
    add(added) {
      for (const entry of added) {
        if (byId.has(entry.id)) entries = entries.filter((other) => other.id !== entry.id);
        byId.set(entry.id, entry);
        entries.push(entry);
      }
    },
    removeDocument(documentId) {
      entries = entries.filter((entry) => {
        if (entry.documentId !== documentId) return true;
        byId.delete(entry.id);
        return false;
      });
    },
    has: (passageId) => byId.has(passageId),
    search(query, options) {
      const allowed = options.datasourceIds ? new Set(options.datasourceIds) : null;
      const best: SearchHit[] = [];
      let floor = Number.NEGATIVE_INFINITY;
      for (const entry of entries) {
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
      return entries.length;
    },
  };
}
