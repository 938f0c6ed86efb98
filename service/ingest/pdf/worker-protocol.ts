/**
 * Messages between the extractor pool and its worker threads. A document is opened by one worker (its
 * owner) and maybe by helpers; the pool hands out page ranges to whichever has the document open. A
 * helper sends each range's pages back, the pool passes them on to the owner, and the owner assembles
 * the document from all of them.
 */
import type { PdfExtraction, PdfReadFailure } from "../types.ts";
import { PdfReadError } from "../types.ts";
import type { PageResult } from "./read-page.ts";

export type WorkerRequest =
  /** Open the document (a copy of its bytes); answered with `opened`. Only the owner reads the metadata. */
  | { type: "open"; id: number; bytes: Uint8Array; ocr: boolean; role: "owner" | "helper" }
  /**
   * Read pages `[first, end)`, OCR included. The owner keeps them and answers `read`; a helper answers
   * with the `pages` themselves and forgets them.
   */
  | { type: "read"; id: number; first: number; end: number }
  /** Owner: pages a helper read; not answered. */
  | { type: "adopt"; id: number; json: Uint8Array }
  /** Owner: build the extraction from all pages and close the document; answered with `result`. */
  | { type: "assemble"; id: number }
  /** Forget the document (read to the end, failed or abandoned); not answered. */
  | { type: "drop"; id: number };

export type WorkerMessage =
  | { id: number; type: "opened"; pageCount: number }
  | { id: number; type: "read" }
  /** One page finished, OCR included; for progress. */
  | { id: number; type: "page" }
  /** JSON, transferred: cheaper than cloning thousands of small objects. */
  | { id: number; type: "pages"; json: Uint8Array }
  | { id: number; type: "result"; json: Uint8Array }
  /** `request`: the type of the request that failed. */
  | { id: number; type: "error"; request: WorkerRequest["type"]; error: SerializedError };

/** Requests a worker answers with exactly one message (besides `page` progress). */
export const isAnswered = (type: WorkerRequest["type"]): boolean =>
  type === "open" || type === "read" || type === "assemble";

export interface SerializedError {
  name: string;
  message: string;
  reason?: PdfReadFailure;
  stack?: string;
}

export function encodeJson(value: PdfExtraction | readonly PageResult[]): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(JSON.stringify(value));
}

export function decodeExtraction(json: Uint8Array): PdfExtraction {
  return JSON.parse(new TextDecoder().decode(json)) as PdfExtraction;
}

export function decodePages(json: Uint8Array): PageResult[] {
  return JSON.parse(new TextDecoder().decode(json)) as PageResult[];
}

/** Structured clone drops an Error's class; the reason of a `PdfReadError` is kept explicitly. */
export function serializeError(error: unknown): SerializedError {
  if (error instanceof PdfReadError)
    return { name: error.name, message: error.message, reason: error.reason };
  if (error instanceof Error) return { name: error.name, message: error.message, stack: error.stack };
  return { name: "Error", message: String(error) };
}

export function deserializeError(serialized: SerializedError): Error {
  if (serialized.reason !== undefined) return new PdfReadError(serialized.reason, serialized.message);
  const error = new Error(serialized.message);
  error.name = serialized.name;
  if (serialized.stack !== undefined) error.stack = serialized.stack;
  return error;
}
