/** The service's own records, as the domain functions and the store exchange them. */
import type { PdfSpan, ReferenceKind } from "../sdk/core/index.ts";
import type { BlockEvidence } from "./ingest/types.ts";

export interface StoredSentence {
  text: string;
  /** Character offsets of the sentence in the passage text. */
  start: number;
  end: number;
  spans?: PdfSpan[];
}

export type PassageEvidence = BlockEvidence | { kind: "pdf_highlight" };

export interface StoredPassage {
  id: string;
  documentId: string;
  assistantId: string;
  datasourceId: string;
  ordinal: number;
  kind: ReferenceKind;
  text: string;
  heading: string;
  title: string;
  sentences: StoredSentence[];
  evidence: PassageEvidence;
  pageStart: number | null;
  pageEnd: number | null;
}

/** A passage with the document fields a citation shows. */
export interface PassageWithSource extends StoredPassage {
  fileName: string;
}
