/** What readers produce: text blocks under their headings, each sentence with its exact positions. */
import type { ChartHint, PdfSpan } from "../../sdk/core/index.ts";

/** One sentence of a source. PDF sentences carry one span per page they cross (rects one per line). */
export interface SourceSentence {
  text: string;
  spans?: PdfSpan[];
}

/** A run of sentences that belong together (a paragraph, a list item, a table row group…). */
export interface SourceBlock {
  /** Headings from the outermost to the nearest, e.g. ["3. Packages", "3.2 Removing"]. */
  headingPath: string[];
  sentences: SourceSentence[];
}

export interface PdfPageInfo {
  index: number;
  width: number;
  height: number;
  /** Non-space characters of text found on the page (after OCR, if OCR ran). */
  textChars: number;
  ocr: boolean;
  /** False when the page had no text layer and OCR was not available. */
  searchable: boolean;
}

export interface PdfExtraction {
  pageCount: number;
  title: string | null;
  pages: PdfPageInfo[];
  blocks: SourceBlock[];
  /** Plain-language notes for the document status, e.g. "3 pages have no text and OCR is not installed". */
  warnings: string[];
}

export type PdfReadFailure = "encrypted" | "corrupt" | "empty" | "no_text";

/** A PDF that cannot be ingested; `message` is shown to the customer as the document's error. */
export class PdfReadError extends Error {
  readonly reason: PdfReadFailure;
  constructor(reason: PdfReadFailure, message: string) {
    super(message);
    this.name = "PdfReadError";
    this.reason = reason;
  }
}

/** Evidence a non-PDF block carries; PDF blocks need none (their sentences have spans). */
export type BlockEvidence =
  /** `code`: lines of a code block, one sentence each, shown as code. */
  | { kind: "paragraph"; code?: true }
  | { kind: "external_link"; url: string; code?: true }
  | { kind: "image"; url: string | null; alt: string }
  | { kind: "table"; columns: string[]; rows: string[][]; chartHint: ChartHint }
  | { kind: "transcript_snippet"; startS: number; endS: number }
  | { kind: "video_interval"; startS: number; endS: number; url: string }
  | { kind: "catalogue_record"; record: Record<string, unknown> };

/** A block of a non-PDF source: one passage-sized unit with its evidence kind. */
export interface TextSourceBlock extends SourceBlock {
  evidence: BlockEvidence;
}

export interface TextExtraction {
  title: string | null;
  blocks: TextSourceBlock[];
  warnings: string[];
}

/** A file that cannot be ingested; `message` is shown to the customer as the document's error. */
export class SourceReadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SourceReadError";
  }
}
