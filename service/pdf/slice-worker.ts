/**
 * The PDF slicer's worker thread: parses documents with pdf-lib and copies pages out of them, off the service's
 * main thread. Messages are described in slice-worker-protocol.ts.
 */
import { readFile } from "node:fs/promises";
import { parentPort } from "node:worker_threads";
import { ParseSpeeds, PDFDocument } from "pdf-lib";
import type { WorkerReply, WorkerRequest } from "./slice-worker-protocol.ts";
import { copyWithoutActions } from "./strip-actions.ts";

if (!parentPort) throw new Error("slice-worker.ts runs only as a worker thread");
const port = parentPort;

/** Parsed documents by sha256; the main thread says which to forget, and so bounds this map. */
const documents = new Map<string, Promise<PDFDocument>>();
const reply = (message: WorkerReply, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

function documentOf(sha256: string, path: string): Promise<PDFDocument> {
  const existing = documents.get(sha256);
  if (existing) return existing;
  const parsing = readFile(path).then((bytes) =>
    PDFDocument.load(bytes, { parseSpeed: ParseSpeeds.Fastest, updateMetadata: false }),
  );
  documents.set(sha256, parsing);
  parsing.then(
    () => reply({ kind: "parsed", sha256, ok: true }),
    () => {
      // A failed parse is not kept: the next request tries again.
      documents.delete(sha256);
      reply({ kind: "parsed", sha256, ok: false });
    },
  );
  return parsing;
}

async function copyPages(original: PDFDocument, start: number, end: number): Promise<Uint8Array> {
  const indices = Array.from({ length: end - start + 1 }, (_, offset) => start + offset);
  const output = await copyWithoutActions(original, indices);
  // Without object streams pdf-lib saves 2-3 times faster; the slice is ~10% larger.
  return output.save({ useObjectStreams: false });
}

async function clean(bytes: Uint8Array): Promise<Uint8Array> {
  const document = await PDFDocument.load(bytes, { parseSpeed: ParseSpeeds.Fastest, updateMetadata: false });
  const output = await copyWithoutActions(document, document.getPageIndices());
  return output.save({ useObjectStreams: false });
}

async function answer(request: Extract<WorkerRequest, { kind: "slice" | "clean" }>): Promise<void> {
  try {
    const bytes =
      request.kind === "clean"
        ? await clean(request.bytes)
        : await copyPages(await documentOf(request.sha256, request.path), request.start, request.end);
    // pdf-lib allocates a plain ArrayBuffer; its typings only say ArrayBufferLike.
    const buffer = bytes.buffer as ArrayBuffer;
    reply(
      { kind: "sliced", id: request.id, bytes: new Uint8Array(buffer, bytes.byteOffset, bytes.byteLength) },
      [buffer],
    );
  } catch (error) {
    reply({
      kind: "failed",
      id: request.id,
      message: error instanceof Error ? error.message : String(error),
    });
  }
}

port.on("message", (message: WorkerRequest) => {
  // A failed parse is answered by documentOf's own "parsed" message.
  if (message.kind === "parse") void documentOf(message.sha256, message.path);
  else if (message.kind === "forget") documents.delete(message.sha256);
  else void answer(message);
});
