/**
 * Messages between the extractor pool and its worker threads. A document is opened by one worker (its
 * owner) and maybe by helpers; the pool hands out page ranges to whichever has the document open. A
 * helper sends each range's pages back, the pool passes them on to the owner, and the owner assembles
 * the document from all of them.
 */
import { deserialize, serialize } from "node:v8";
import type { PdfExtraction, PdfReadFailure } from "../types.ts";
import { PdfReadError } from "../types.ts";
import type { PageResult } from "./read-page.ts";

export type WorkerRequest =
  /** Open the document (a copy of its bytes); answered with `opened`. Only the owner reads the metadata. */
  | { type: "open"; id: number; bytes: Uint8Array; ocr: boolean; role: "owner" | "helper" }
  /**
   * Read pages `[first, end)`, OCR included. The owner keeps them and answers `read`; a helper answers
   * with the `pages` themselves and forgets them. A range waiting for OCR is answered after the ranges
   * read next, so answers name their range by its first page.
   */
  | { type: "read"; id: number; first: number; end: number }
  /** Owner: pages a helper read; not answered. */
  | { type: "adopt"; id: number; data: Uint8Array }
  /** Owner: build the extraction from all pages and close the document; answered with `result`. */
  | { type: "assemble"; id: number }
  /** Forget the document (read to the end, failed or abandoned); not answered. */
  | { type: "drop"; id: number };

export type WorkerMessage =
  | { id: number; type: "opened"; pageCount: number }
  | { id: number; type: "read"; first: number }
  /** One page finished, OCR included; for progress. */
  | { id: number; type: "page" }
  /** `encodeForTransfer`'s bytes, transferred. */
  | { id: number; type: "pages"; first: number; data: Uint8Array }
  | { id: number; type: "result"; data: Uint8Array }
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

/**
 * Pages and extractions cross threads as V8 serializer bytes, transferred. For all of octave.pdf's pages,
 * JSON took 1.7–2.3 s to write and 0.8–1.2 s to parse (mostly formatting coordinates); these bytes take
 * 0.4 s and 0.5–0.6 s. The pool hands a helper's bytes on to the owner without reading them.
 */
export function encodeForTransfer(value: unknown): Uint8Array<ArrayBuffer> {
  const bytes = serialize(value);
  // A transfer hands over the whole ArrayBuffer: bytes sharing one are copied out first.
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
    ? new Uint8Array(bytes.buffer as ArrayBuffer)
    : new Uint8Array(bytes);
}

export function decodeExtraction(data: Uint8Array): PdfExtraction {
  return deserialize(data) as PdfExtraction;
}

export function decodePages(data: Uint8Array): PageResult[] {
  return deserialize(data) as PageResult[];
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
