/** Worker thread entry (see read-in-worker.ts): reads one zipped document and posts its blocks or its failure. */
import { parentPort, workerData } from "node:worker_threads";
import { readTextSource } from "../text/read-text-source.ts";
import { SourceReadError } from "../types.ts";
import type { ZipReadReply } from "./read-in-worker.ts";

const port = parentPort;
if (port === null) throw new Error("zip-worker.ts must run in a worker thread (see read-in-worker.ts).");
const { fileName, bytes } = workerData as { fileName: string; bytes: Uint8Array };

let reply: ZipReadReply;
try {
  reply = { ok: true, extraction: readTextSource(fileName, bytes) };
} catch (error) {
  reply = {
    ok: false,
    known: error instanceof SourceReadError,
    message: error instanceof Error ? error.message : String(error),
    stack: error instanceof Error ? (error.stack ?? null) : null,
  };
}
port.postMessage(reply);
