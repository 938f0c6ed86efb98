/** The in-memory BM25F retriever: a CSR segment plus a mutable one, tombstones, merges and snapshots. */
import { analyze, analyzeQuery, type WeightedTerm } from "./analyzer.ts";
import { type Bm25IndexOptions, type Bm25Parameters, resolveBm25Parameters } from "./bm25-parameters.ts";
import { type CsrSegment, createCsrSegment, emptyCsrSegment, mergeSegments } from "./csr-segment.ts";
import { MutableSegment, type WeightedField } from "./mutable-segment.ts";
import { PassageTable } from "./passage-table.ts";
import { liveDocumentFrequency, type ScoringState } from "./postings-scorer.ts";
import { rankTerms } from "./rank-terms.ts";
import { decodeSnapshot, encodeSnapshot } from "./snapshot-codec.ts";
import type { IndexedPassage, Retriever, SearchHit, SearchOptions } from "./types.ts";

export type { WeightedTerm } from "./analyzer.ts";
export type { Bm25IndexOptions, Bm25Parameters, FieldWeights } from "./bm25-parameters.ts";
export { IndexSnapshotError } from "./snapshot-codec.ts";

export interface Bm25Index extends Retriever {
  readonly parameters: Bm25Parameters;
  /**
   * Ranks by weighted index terms (the output of `analyzeQuery`, possibly extended with expansion
   * terms): each term's BM25 contribution is multiplied by its weight; weights below 1e-6 are ignored.
   */
  searchTerms(terms: readonly WeightedTerm[], options: SearchOptions): SearchHit[];
  /** Live passages containing an index term (an analyzed, stemmed term such as "remov"). */
  documentFrequency(term: string): number;
  /** Folds the mutable segment and removed passages into a new CSR segment now. */
  merge(): void;
  /** A binary snapshot of the index (merges first); load it with `loadBm25Index`. */
  serialize(): Uint8Array;
}

// Merge policy. Small adds collect in the mutable segment until it holds 2048 passages and an eighth
// of the index; removed passages are merged away once they are a tenth of the ordinals. Both keep
// query cost close to the all-CSR cost. A large batch merges whenever its log reaches a quarter of the
// index (bounding memory: a log posting takes twice a CSR posting) and once more at its end.
const mergeMinPassages = 2048;
const mutableFraction = 1 / 8;
const batchFraction = 1 / 4;
const removedFraction = 1 / 10;
const minTermWeight = 1e-6;

class Bm25IndexImplementation implements Bm25Index {
  readonly parameters: Bm25Parameters;
  private state: ScoringState;
  private normsStale = true;

  constructor(parameters: Bm25Parameters, base: CsrSegment, table: PassageTable) {
    this.parameters = parameters;
    const capacity = Math.max(table.lengths.length, 1024);
    this.state = {
      base,
      mutable: new MutableSegment(),
      table,
      norms: new Float32Array(capacity),
      scores: new Float32Array(capacity),
      touched: new Uint32Array(capacity),
    };
  }

  get size(): number {
    return this.state.table.liveCount;
  }

  add(passages: readonly IndexedPassage[]): void {
    const weights = this.parameters.fieldWeights;
    const titleTerms = memoizeLast(analyze);
    const headingTerms = memoizeLast(analyze);
    for (const passage of passages) {
      const { table, mutable } = this.state;
      const previous = table.liveOrdinalOf(passage.id);
      if (previous !== undefined) table.remove(previous);
      const fields: WeightedField[] = [
        { terms: weights.text > 0 ? analyze(passage.text) : [], weight: weights.text },
        { terms: weights.title > 0 ? titleTerms(passage.title) : [], weight: weights.title },
        { terms: weights.heading > 0 ? headingTerms(passage.heading) : [], weight: weights.heading },
      ];
      let length = 0;
      for (const { terms, weight } of fields) length += terms.length * weight;
      const ordinal = table.append(passage.id, passage.documentId, passage.datasourceId, length);
      mutable.addPassage(ordinal, fields);
      if (mutable.passageCount >= Math.max(mergeMinPassages, table.liveCount * batchFraction)) this.merge();
    }
    this.normsStale = true;
    const { table, mutable } = this.state;
    if (
      passages.length >= mergeMinPassages ||
      mutable.passageCount >= Math.max(mergeMinPassages, table.liveCount * mutableFraction) ||
      table.deadCount > table.count * removedFraction
    ) {
      this.merge();
    } else {
      this.reserveBuffers();
    }
  }

  removeDocument(documentId: string): void {
    const { table } = this.state;
    if (table.removeDocument(documentId) === 0) return;
    this.normsStale = true;
    if (table.deadCount > table.count * removedFraction) this.merge();
  }

  search(query: string, options: SearchOptions): SearchHit[] {
    return this.searchTerms(analyzeQuery(query), options);
  }

  searchTerms(terms: readonly WeightedTerm[], options: SearchOptions): SearchHit[] {
    const state = this.state;
    const { table } = state;
    if (options.limit <= 0 || table.liveCount === 0) return [];
    const allowed = this.allowedDatasources(options.datasourceIds);
    if (allowed === "none") return [];
    if (this.normsStale) this.refreshNorms();
    const top = rankTerms(state, combineWeights(terms), allowed, Math.floor(options.limit));
    const hits: SearchHit[] = [];
    for (let rank = 0; rank < top.ordinals.length; rank++) {
      hits.push({ id: table.passageIds[top.ordinals[rank]!]!, score: top.scores[rank]! });
    }
    return hits;
  }

  documentFrequency(term: string): number {
    return liveDocumentFrequency(this.state, term);
  }

  merge(): void {
    const { base, mutable, table } = this.state;
    if (mutable.passageCount === 0 && table.deadCount === 0) return;
    const compacted = table.compact();
    this.state.base = mergeSegments(base, mutable, compacted.remap);
    this.state.mutable = new MutableSegment();
    this.state.table = compacted.table;
    this.normsStale = true;
    this.reserveBuffers();
  }

  serialize(): Uint8Array {
    this.merge();
    const { base, table } = this.state;
    return encodeSnapshot({
      parameters: this.parameters,
      postings: {
        terms: [...base.terms],
        offsets: base.offsets,
        ordinals: base.ordinals,
        frequencies: base.frequencies,
      },
      passages: table.columns(),
    });
  }

  /** null = every datasource; "none" = no known datasource asked for. */
  private allowedDatasources(datasourceIds: readonly string[] | undefined): Uint8Array | null | "none" {
    if (datasourceIds === undefined) return null;
    const { table } = this.state;
    const allowed = new Uint8Array(table.datasourceIds.length);
    let known = 0;
    for (const datasourceId of datasourceIds) {
      const ordinal = table.datasourceOrdinalOf(datasourceId);
      if (ordinal !== undefined) {
        allowed[ordinal] = 1;
        known++;
      }
    }
    return known === 0 ? "none" : allowed;
  }

  private refreshNorms(): void {
    const { table } = this.state;
    this.reserveBuffers();
    const { k1, b } = this.parameters;
    // An index of empty passages has avgdl 0; they match nothing, so any positive value will do.
    const averageLength = table.liveLengthSum > 0 ? table.liveLengthSum / table.liveCount : 1;
    const norms = this.state.norms;
    const lengths = table.lengths;
    for (let ordinal = 0; ordinal < table.count; ordinal++) {
      norms[ordinal] = k1 * (1 - b + (b * lengths[ordinal]!) / averageLength);
    }
    this.normsStale = false;
  }

  private reserveBuffers(): void {
    const state = this.state;
    const needed = state.table.lengths.length;
    if (state.scores.length >= needed) return;
    state.norms = new Float32Array(needed);
    state.scores = new Float32Array(needed);
    state.touched = new Uint32Array(needed);
    this.normsStale = true;
  }
}

/** Passages of one document repeat its title and headings: analyze each distinct run once. */
function memoizeLast(analyzeText: (text: string) => string[]): (text: string) => string[] {
  let lastText: string | undefined;
  let lastTerms: string[] = [];
  return (text) => {
    if (text !== lastText) {
      lastText = text;
      lastTerms = analyzeText(text);
    }
    return lastTerms;
  };
}

function combineWeights(terms: readonly WeightedTerm[]): Map<string, number> {
  const combined = new Map<string, number>();
  for (const { term, weight } of terms) combined.set(term, (combined.get(term) ?? 0) + weight);
  for (const [term, weight] of combined) if (!(weight >= minTermWeight)) combined.delete(term);
  return combined;
}

/** An empty index. Defaults: k1 0.9, b 0.4, field weights text 1, title 2, heading 1.5. */
export function createBm25Index(options?: Bm25IndexOptions): Bm25Index {
  return new Bm25IndexImplementation(resolveBm25Parameters(options), emptyCsrSegment, new PassageTable());
}

/**
 * Rebuilds an index from `serialize()` output without re-tokenizing.
 * @throws IndexSnapshotError for bytes that are not a snapshot this build can read.
 */
export function loadBm25Index(bytes: Uint8Array): Bm25Index {
  const { parameters, postings, passages } = decodeSnapshot(bytes);
  const base = createCsrSegment(postings.terms, postings.offsets, postings.ordinals, postings.frequencies);
  return new Bm25IndexImplementation(
    resolveBm25Parameters(parameters),
    base,
    PassageTable.fromColumns(passages),
  );
}
