/** Worker thread entry: holds open documents and answers the pool's requests one at a time, in order. */
import { parentPort } from "node:worker_threads";
import { assembleExtraction, openPdfReading, type PdfReading } from "./extract-pdf.ts";
import { isOcrAvailable } from "./ocr.ts";
import { loadPdfjs } from "./pdf-document.ts";
import type { PageResult } from "./read-page.ts";
import {
  decodePages,
  encodeForTransfer,
  serializeError,
  type WorkerMessage,
  type WorkerRequest,
} from "./worker-protocol.ts";

const port = parentPort;
if (port === null) throw new Error("worker.ts must run in a worker thread (see pool.ts).");

// Loaded and probed at once, side by side (the pool starts a thread when a document is waiting for it);
// a failure surfaces when a document is opened.
loadPdfjs().catch(() => undefined);
void isOcrAvailable();

interface OpenDocument {
  reading: PdfReading;
  role: "owner" | "helper";
}

const documents = new Map<number, OpenDocument>();
const send = (message: WorkerMessage, transfer: ArrayBuffer[] = []): void =>
  port.postMessage(message, transfer);

function open(id: number): OpenDocument {
  const found = documents.get(id);
  if (found === undefined) throw new Error(`document ${id} is not open in this worker`);
  return found;
}

async function close(id: number): Promise<void> {
  const found = documents.get(id);
  documents.delete(id);
  await found?.reading.close();
}

async function handle(request: WorkerRequest): Promise<void> {
  const { id } = request;
  switch (request.type) {
    case "open": {
      const reading = await openPdfReading(request.bytes, {
        ocr: request.ocr,
        metadata: request.role === "owner",
      });
      documents.set(id, { reading, role: request.role });
      send({ id, type: "opened", pageCount: reading.pageCount });
      return;
    }
    case "read": {
      const { reading, role } = open(id);
      const { first, end } = request;
      const { done } = await reading.readPages(first, end, () => send({ id, type: "page" }));
      // The range's OCR goes on while the next request is read; the range is answered when it is done too,
      // so the pool hands a worker busy with scanned pages no more ranges and they spread over the workers.
      done
        .then(async () => {
          if (role === "owner") {
            send({ id, type: "read", first });
            return;
          }
          const data = encodeForTransfer(await reading.takePages(first, end));
          send({ id, type: "pages", first, data }, [data.buffer]);
        })
        .catch((error: unknown) =>
          send({ id, type: "error", request: "read", error: serializeError(error) }),
        );
      return;
    }
    case "adopt":
      open(id).reading.addPages(decodePages(request.data));
      return;
    case "assemble": {
      const { reading } = open(id);
      let pages: PageResult[];
      try {
        pages = await reading.pages();
      } finally {
        // pdfjs's state of a large document weighs as much as its pages: gone before the blocks are built.
        await close(id);
      }
      const data = encodeForTransfer(assembleExtraction(reading, pages));
      send({ id, type: "result", data }, [data.buffer]);
      return;
    }
    case "drop":
      await close(id);
      return;
  }
}

let queue: Promise<void> = Promise.resolve();
port.on("message", (request: WorkerRequest) => {
  // A failed request is answered with its error; the pool then drops the document everywhere.
  queue = queue.then(() =>
    handle(request).catch((error: unknown) =>
      send({ id: request.id, type: "error", request: request.type, error: serializeError(error) }),
    ),
  );
});
