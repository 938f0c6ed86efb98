/**
 * The PDF slicer's worker thread: parses documents with pdf-lib and writes slices of them (slice-writer.ts), off
 * the service's main thread. Messages are described in slice-worker-protocol.ts.
 */
import { readFile } from "node:fs/promises";
import { parentPort } from "node:worker_threads";
import { ParseSpeeds, PDFDocument } from "pdf-lib";
import type { WorkerReply, WorkerRequest } from "./slice-worker-protocol.ts";
import { createSliceWriter, type SliceWriter } from "./slice-writer.ts";

if (!parentPort) throw new Error("slice-worker.ts runs only as a worker thread");
const port = parentPort;

/** Parsed documents by sha256; the main thread says which to forget, and so bounds this map. */
const documents = new Map<string, Promise<SliceWriter>>();
const reply = (message: WorkerReply, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

const parse = async (bytes: Uint8Array): Promise<SliceWriter> =>
  createSliceWriter(
    await PDFDocument.load(bytes, { parseSpeed: ParseSpeeds.Fastest, updateMetadata: false }),
  );

function documentOf(sha256: string, path: string): Promise<SliceWriter> {
  const existing = documents.get(sha256);
  if (existing) return existing;
  const parsing = readFile(path).then(parse);
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

const pageRange = (start: number, end: number) =>
  Array.from({ length: end - start + 1 }, (_, offset) => start + offset);

/** Rewrites a slice qpdf made, which may carry active content, without it. */
async function clean(bytes: Uint8Array): Promise<Uint8Array<ArrayBuffer>> {
  const writer = await parse(bytes);
  return writer.write(pageRange(0, writer.pageCount - 1));
}

async function answer(request: Extract<WorkerRequest, { kind: "slice" | "clean" }>): Promise<void> {
  try {
    const bytes =
      request.kind === "clean"
        ? await clean(request.bytes)
        : (await documentOf(request.sha256, request.path)).write(pageRange(request.start, request.end));
    reply({ kind: "sliced", id: request.id, bytes }, [bytes.buffer]);
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
