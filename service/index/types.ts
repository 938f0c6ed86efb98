/** The retrieval interface: the lexical index today, a dense or hybrid retriever later, same callers. */

export interface IndexedPassage {
  /** Durable passage id (`psg_…`). */
  id: string;
  datasourceId: string;
  documentId: string;
  text: string;
  title: string;
  /** Nearest headings joined, outermost first. */
  heading: string;
}

export interface SearchOptions {
  limit: number;
  /** Only passages of these datasources; an empty list matches nothing; undefined matches all. */
  datasourceIds?: readonly string[];
}

export interface SearchHit {
  id: string;
  score: number;
}

export interface Retriever {
  add(passages: readonly IndexedPassage[]): void;
  removeDocument(documentId: string): void;
  search(query: string, options: SearchOptions): SearchHit[];
  readonly size: number;
}
