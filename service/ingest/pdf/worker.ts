/** Worker thread entry: extracts one PDF per request and reports progress, the result or the error. */
import { parentPort } from "node:worker_threads";
import { extractPdf } from "./extract-pdf.ts";
import {
  type ExtractRequest,
  encodeExtraction,
  serializeError,
  type WorkerMessage,
} from "./worker-protocol.ts";

const port = parentPort;
if (port === null) throw new Error("worker.ts must run in a worker thread (see pool.ts).");

port.on("message", async (request: ExtractRequest) => {
  const send = (message: WorkerMessage, transfer: ArrayBuffer[] = []): void =>
    port.postMessage(message, transfer);
  try {
    const extraction = await extractPdf(request.bytes, {
      ocr: request.ocr,
      onProgress: (pagesDone, pageCount) => send({ id: request.id, type: "progress", pagesDone, pageCount }),
    });
    const json = encodeExtraction(extraction);
    send({ id: request.id, type: "result", json }, [json.buffer]);
  } catch (error) {
    send({ id: request.id, type: "error", error: serializeError(error) });
  }
});
