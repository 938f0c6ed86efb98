/** The shape every non-PDF reader shares, so the dispatcher can pick one by file type. */
import type { TextExtraction } from "../types.ts";

/** What a reader knows about where the file came from. */
export interface TextReadContext {
  /** The page or video URL the file was saved from, when the datasource is a list of URLs. */
  datasourceUrl?: string | null;
}

/** Reads one file into passage-sized blocks; throws `SourceReadError` for unusable input. */
export type TextReader = (fileName: string, bytes: Uint8Array, context: TextReadContext) => TextExtraction;
