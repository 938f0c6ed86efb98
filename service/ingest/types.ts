/** What readers produce: text blocks under their headings, each sentence with its exact positions. */
import type { PdfSpan } from "../../sdk/core/wire.ts";
import type { BlockEvidence } from "../domain.ts";

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
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "SourceReadError";
  }
}
