/** Opens PDF bytes with pdfjs for text extraction, turning its failures into `PdfReadError`s. */
import { createRequire } from "node:module";
import path from "node:path";
import type { PDFDocumentLoadingTask, PDFDocumentProxy, PDFWorker } from "pdfjs-dist/types/src/pdf";
import { PdfReadError } from "../types.ts";
import { createPortPair } from "./pdfjs-port.ts";

type PdfjsModule = typeof import("pdfjs-dist/legacy/build/pdf.mjs");

let pdfjsModule: Promise<PdfjsModule> | null = null;

export function loadPdfjs(): Promise<PdfjsModule> {
  pdfjsModule ??= import("pdfjs-dist/legacy/build/pdf.mjs");
  return pdfjsModule;
}

let sharedWorker: Promise<PDFWorker> | null = null;

/** One pdfjs worker per thread for every document, talking over a port that copies cheaply. */
function pdfjsWorker(): Promise<PDFWorker> {
  sharedWorker ??= (async () => {
    const [pdfjs, { WorkerMessageHandler }] = await Promise.all([
      loadPdfjs(),
      import("pdfjs-dist/legacy/build/pdf.worker.mjs"),
    ]);
    const [api, worker] = createPortPair();
    WorkerMessageHandler.initializeFromPort(worker);
    // pdfjs's declarations leave out the `port` option its constructor reads (it expects a Worker).
    type WorkerOptions = ConstructorParameters<typeof pdfjs.PDFWorker>[0];
    return new pdfjs.PDFWorker({ port: api } as unknown as WorkerOptions);
  })();
  return sharedWorker;
}

// Non-embedded standard fonts and CJK CMaps are read from the installed package, never fetched.
const packageRoot = path.dirname(createRequire(import.meta.url).resolve("pdfjs-dist/package.json"));
const assetDirectory = (name: string): string => `${path.join(packageRoot, name)}${path.sep}`;

export interface OpenedPdf {
  document: PDFDocumentProxy;
  close(): Promise<void>;
}

const ENCRYPTED_MESSAGE = "The PDF is password-protected; upload an unencrypted copy.";
export const CORRUPT_MESSAGE = "The file is not a readable PDF (it may be damaged or only partly uploaded).";
export const EMPTY_MESSAGE = "The PDF has no pages.";

// pdfjs's exceptions for a file it cannot parse; anything else (a missing module, a bug) is not the file's fault.
const UNREADABLE = new Set([
  "InvalidPDFException",
  "FormatError",
  "UnknownErrorException",
  "XRefParseException",
]);

/** Maps a pdfjs failure to the customer-facing reason, or returns the error unchanged when it is not about the file. */
function toReadError(error: unknown): unknown {
  if (error instanceof PdfReadError || !(error instanceof Error)) return error;
  if (error.name === "PasswordException") return new PdfReadError("encrypted", ENCRYPTED_MESSAGE);
  if (UNREADABLE.has(error.name)) return new PdfReadError("corrupt", CORRUPT_MESSAGE);
  return error;
}

/** Opens the document; pdfjs takes ownership of `bytes` and keeps reading them. */
export async function openPdf(bytes: Uint8Array): Promise<OpenedPdf> {
  if (bytes.byteLength === 0) throw new PdfReadError("empty", "The file is empty (0 bytes).");
  const pdfjs = await loadPdfjs();
  // pdfjs rejects Node Buffers; a plain view over the same memory avoids a copy.
  const data = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const task: PDFDocumentLoadingTask = pdfjs.getDocument({
    data,
    worker: await pdfjsWorker(),
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
    standardFontDataUrl: assetDirectory("standard_fonts"),
    cMapUrl: assetDirectory("cmaps"),
    cMapPacked: true,
    wasmUrl: assetDirectory("wasm"),
  });
  try {
    const document = await task.promise;
    return { document, close: () => task.destroy() };
  } catch (error) {
    await task.destroy();
    throw toReadError(error);
  }
}
