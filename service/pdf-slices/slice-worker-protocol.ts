/** The messages between the PDF slicer and its worker thread (slice-worker.ts). */

export type WorkerRequest =
  | { kind: "forget"; sha256: string }
  /** Pages [start, end] (0-based, inclusive) copied into a new PDF. */
  | { kind: "slice"; id: number; sha256: string; path: string; start: number; end: number }
  /** A slice made elsewhere (qpdf), saved again without its active content (strip-actions.ts). */
  | { kind: "clean"; id: number; bytes: Uint8Array };

export type WorkerReply =
  | { kind: "sliced"; id: number; bytes: Uint8Array<ArrayBuffer> }
  | { kind: "failed"; id: number; message: string };
