/** The service's own records, as the domain functions and the store exchange them. */
import type { ChartHint, PdfSpan, ReferenceKind } from "../sdk/core/wire.ts";

/** Evidence a non-PDF block carries; PDF blocks need none (their sentences have spans). */
export type BlockEvidence =
  /** `code`: lines of a code block, one sentence each, shown as code. */
  | { kind: "paragraph"; code?: true }
  | { kind: "external_link"; url: string; code?: true }
  /** `ocr`: an uploaded image read with OCR, its sentences boxed in pixels (spans of "page" 0). */
  | { kind: "image"; url: string | null; alt: string; ocr?: true }
  | { kind: "table"; columns: string[]; rows: string[][]; chartHint: ChartHint }
  | { kind: "transcript_snippet"; startS: number; endS: number }
  | { kind: "video_interval"; startS: number; endS: number; url: string }
  | { kind: "catalogue_record"; record: Record<string, unknown> };

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
