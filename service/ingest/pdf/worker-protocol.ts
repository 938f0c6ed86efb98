/** Messages between the extractor pool and its worker threads, and errors that survive the crossing. */
import type { PdfExtraction, PdfReadFailure } from "../types.ts";
import { PdfReadError } from "../types.ts";

export interface ExtractRequest {
  id: number;
  bytes: Uint8Array;
  ocr: boolean;
}

export interface SerializedError {
  name: string;
  message: string;
  reason?: PdfReadFailure;
  stack?: string;
}

export type WorkerMessage =
  | { id: number; type: "progress"; pagesDone: number; pageCount: number }
  /** The extraction as UTF-8 JSON, transferred: cheaper than cloning thousands of small objects. */
  | { id: number; type: "result"; json: Uint8Array }
  | { id: number; type: "error"; error: SerializedError };

export function encodeExtraction(extraction: PdfExtraction): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(JSON.stringify(extraction));
}

export function decodeExtraction(json: Uint8Array): PdfExtraction {
  return JSON.parse(new TextDecoder().decode(json)) as PdfExtraction;
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
