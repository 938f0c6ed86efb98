/**
 * The PDF slicer's worker thread: reads documents and writes slices of them (slice-writer.ts), off the service's
 * main thread. A document is read lazily (lazy-pdf-reader.ts): a first slice reads only what its pages reach,
 * and while the worker has nothing to answer it reads the rest of the document a few milliseconds at a time,
 * and serializes what each page reaches, so that later slices are mostly copying. A document the lazy reader refuses is parsed whole by pdf-lib,
 * which rebuilds damaged cross-references. Messages are described in slice-worker-protocol.ts.
 */
import { readFile } from "node:fs/promises";
import { parentPort } from "node:worker_threads";
import { ParseSpeeds, PDFDocument } from "pdf-lib";
import { type LazyPageSource, openLazily } from "./lazy-pdf-reader.ts";
import type { WorkerReply, WorkerRequest } from "./slice-worker-protocol.ts";
import { createSliceWriter, pageSourceOf, type SliceWriter } from "./slice-writer.ts";

if (!parentPort) throw new Error("slice-worker.ts runs only as a worker thread");
const port = parentPort;
/** How long one step of reading ahead may hold the thread before a waiting request is answered. */
const readAheadStepMs = 4;

interface Held {
  writer: SliceWriter;
  /** Reads more of the document for up to `ms`; false once everything is read. */
  readAhead(ms: number): boolean;
  /** Read by the lazy reader; otherwise parsed whole by pdf-lib. */
  lazy: boolean;
  /** The whole parse that replaces a lazily read document found damaged while slicing, once started. */
  replacement?: Promise<Held>;
}

/** Documents by sha256; the main thread says which to forget, and so bounds this map. */
const documents = new Map<string, Promise<Held>>();
const reply = (message: WorkerReply, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The document parsed whole; `lazyFailure` says why the lazy reader could not do, for the error if this fails too. */
async function parsedWhole(bytes: Uint8Array, lazyFailure: string | null): Promise<Held> {
  try {
    const document = await PDFDocument.load(bytes, {
      parseSpeed: ParseSpeeds.Fastest,
      updateMetadata: false,
    });
    return { writer: createSliceWriter(pageSourceOf(document)), readAhead: () => false, lazy: false };
  } catch (error) {
    throw new Error(lazyFailure ? `${messageOf(error)} (read lazily: ${lazyFailure})` : messageOf(error));
  }
}

async function read(path: string): Promise<Held> {
  const bytes = await readFile(path);
  let source: LazyPageSource;
  try {
    source = openLazily(bytes);
  } catch (error) {
    return parsedWhole(bytes, messageOf(error));
  }
  return { writer: createSliceWriter(source), readAhead: source.readAhead, lazy: true };
}

/** A failed read is not kept: the next request tries again. */
function dropIfFailed(sha256: string, entry: Promise<Held>): void {
  entry.catch(() => {
    if (documents.get(sha256) === entry) documents.delete(sha256);
  });
}

function documentOf(sha256: string, path: string): Promise<Held> {
  const existing = documents.get(sha256);
  if (existing) return existing;
  const reading = read(path);
  documents.set(sha256, reading);
  dropIfFailed(sha256, reading);
  return reading;
}

const pageRange = (start: number, end: number) =>
  Array.from({ length: end - start + 1 }, (_, offset) => start + offset);

/** A slice of the document; a lazily read one that turns out damaged past its cross-reference is parsed whole. */
async function slice(sha256: string, path: string, indices: number[]): Promise<Uint8Array<ArrayBuffer>> {
  const entry = documentOf(sha256, path);
  const held = await entry;
  try {
    return held.writer.write(indices);
  } catch (error) {
    if (!held.lazy) throw error;
    // One whole parse however many requests find the damage; later requests use it through the map.
    if (!held.replacement) {
      held.replacement = readFile(path).then((bytes) => parsedWhole(bytes, messageOf(error)));
      // Unless the main thread has forgotten the document meanwhile.
      if (documents.get(sha256) === entry) {
        documents.set(sha256, held.replacement);
        dropIfFailed(sha256, held.replacement);
      }
    }
    return (await held.replacement).writer.write(indices);
  }
}

/** Rewrites a slice qpdf made, which may carry active content, without it. */
async function clean(bytes: Uint8Array): Promise<Uint8Array<ArrayBuffer>> {
  const { writer } = await parsedWhole(bytes, null);
  return writer.write(pageRange(0, writer.pageCount - 1));
}

let pendingRequests = 0;
let readingAhead = false;

/**
 * Reads ahead in the documents held and prepares their pages' slices, one short step per turn of the event
 * loop, while no request waits.
 */
function readAheadWhenIdle(): void {
  if (readingAhead) return;
  readingAhead = true;
  const step = async () => {
    if (pendingRequests > 0) {
      readingAhead = false;
      return;
    }
    for (const held of documents.values()) {
      // A failed read was answered to the requests that waited for it and is being removed from the map.
      const document = await held.catch(() => null);
      if (document && (document.readAhead(readAheadStepMs) || document.writer.prepare(readAheadStepMs))) {
        setImmediate(step);
        return;
      }
    }
    readingAhead = false;
  };
  setImmediate(step);
}

async function answer(request: Extract<WorkerRequest, { kind: "slice" | "clean" }>): Promise<void> {
  pendingRequests += 1;
  try {
    const bytes =
      request.kind === "clean"
        ? await clean(request.bytes)
        : await slice(request.sha256, request.path, pageRange(request.start, request.end));
    reply({ kind: "sliced", id: request.id, bytes }, [bytes.buffer]);
  } catch (error) {
    reply({
      kind: "failed",
      id: request.id,
      message: error instanceof Error ? error.message : String(error),
    });
  } finally {
    pendingRequests -= 1;
    readAheadWhenIdle();
  }
}

port.on("message", (message: WorkerRequest) => {
  if (message.kind === "forget") documents.delete(message.sha256);
  else void answer(message);
});
