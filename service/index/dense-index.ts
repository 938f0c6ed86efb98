/**
 * Passage vectors of one assistant, searched exhaustively by cosine. The vectors sit in one int8 matrix
 * with a float32 scale per row (388 bytes a passage for 384 dimensions), which a scan reads in order; an
 * exhaustive scan keeps recall exact, which an approximate index would trade for speed.
 */

import { type Int8Scan, scanInJs } from "./int8-scan.ts";
import type { SearchHit, SearchOptions } from "./types.ts";
import type { QuantizedVector } from "./vector-codec.ts";

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
  search(query: Float32Array, options: SearchOptions): Promise<SearchHit[]>;
  readonly size: number;
}

export function createDenseIndex(scan: Int8Scan = scanInJs): DenseIndex {
  let dimensions = 0;
  let count = 0;
  let values = new Int8Array(0);
  let scales = new Float32Array(0);
  const ids: string[] = [];
  const documentIds: string[] = [];
  const datasourceIds: string[] = [];
  const rowOf = new Map<string, number>();

  function grow(): void {
    const capacity = Math.max(1024, scales.length * 2);
    const nextValues = new Int8Array(capacity * dimensions);
    nextValues.set(values);
    values = nextValues;
    const nextScales = new Float32Array(capacity);
    nextScales.set(scales);
    scales = nextScales;
  }

  function write(row: number, entry: Entry): void {
    values.set(entry.vector.values, row * dimensions);
    scales[row] = entry.vector.scale;
    ids[row] = entry.id;
    documentIds[row] = entry.documentId;
    datasourceIds[row] = entry.datasourceId;
    rowOf.set(entry.id, row);
  }

  return {
    add(added) {
      for (const entry of added) {
        dimensions ||= entry.vector.values.length;
        if (entry.vector.values.length !== dimensions)
          throw new Error(
            `a vector of ${entry.vector.values.length} dimensions in an index of ${dimensions}`,
          );
        const existing = rowOf.get(entry.id);
        if (existing !== undefined) {
          write(existing, entry);
          continue;
        }
        if (count === scales.length) grow();
        write(count, entry);
        count += 1;
      }
    },
    removeDocument(documentId) {
      // The last row moves into each removed one: rows stay packed, and order does not matter to a scan.
      let row = 0;
      while (row < count) {
        if (documentIds[row] !== documentId) {
          row += 1;
          continue;
        }
        rowOf.delete(ids[row]!);
        const last = count - 1;
        if (row !== last) {
          values.copyWithin(row * dimensions, last * dimensions, (last + 1) * dimensions);
          scales[row] = scales[last]!;
          ids[row] = ids[last]!;
          documentIds[row] = documentIds[last]!;
          datasourceIds[row] = datasourceIds[last]!;
          rowOf.set(ids[row]!, row);
        }
        ids.length = documentIds.length = datasourceIds.length = last;
        count = last;
      }
    },
    has: (passageId) => rowOf.has(passageId),
    async search(query, options) {
      const allowed = options.datasourceIds ? new Set(options.datasourceIds) : null;
      if (count === 0 || allowed?.size === 0) return [];
      // The rows as they are now: adds and removals may change them while the scan runs.
      const rows = count;
      const rowIds = ids.slice(0, rows);
      const rowDatasources = datasourceIds.slice(0, rows);
      const rowScales = scales.slice(0, rows);
      const dots = await scan(values, rows, query);
      const best: SearchHit[] = [];
      let floor = Number.NEGATIVE_INFINITY;
      for (let row = 0; row < rows; row++) {
        if (allowed && !allowed.has(rowDatasources[row]!)) continue;
        const score = dots[row]! * rowScales[row]!;
        if (best.length >= options.limit && score <= floor) continue;
        best.push({ id: rowIds[row]!, score });
        if (best.length > options.limit * 4) {
          best.sort((a, b) => b.score - a.score);
          best.length = options.limit;
          floor = best.at(-1)?.score ?? floor;
        }
      }
      return best.sort((a, b) => b.score - a.score).slice(0, options.limit);
    },
    get size() {
      return count;
    },
  };
}
