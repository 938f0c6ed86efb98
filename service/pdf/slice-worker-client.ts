/**
 * Talks to the slicer's worker thread: one thread, started with the client (so that the first slice does not wait
 * for it to load its code), restarted on the next request after a crash.
 */
import { Worker } from "node:worker_threads";
import type { WorkerReply, WorkerRequest } from "./slice-worker-protocol.ts";

const workerUrl = new URL("./slice-worker.ts", import.meta.url);

export interface SliceWorkerClient {
  forget(sha256: string): void;
  slice(sha256: string, path: string, start: number, end: number): Promise<Uint8Array<ArrayBuffer>>;
  /** `bytes` saved again without active content. */
  clean(bytes: Uint8Array): Promise<Uint8Array<ArrayBuffer>>;
  close(): Promise<void>;
}

/** The worker ended (crash or close) before it answered; the document may be fine. */
export class SliceWorkerLost extends Error {}

export function createSliceWorkerClient(): SliceWorkerClient {
  let worker: Worker | null = null;
  let nextId = 0;
  const pending = new Map<
    number,
    { resolve: (bytes: Uint8Array<ArrayBuffer>) => void; reject: (error: Error) => void }
  >();

  function lost(error: Error): void {
    worker = null;
    for (const request of pending.values()) request.reject(error);
    pending.clear();
  }

  function started(): Worker {
    if (worker) return worker;
    const created = new Worker(workerUrl);
    // The worker never keeps the process alive; the HTTP server does while there is work.
    created.unref();
    created.on("message", (reply: WorkerReply) => {
      const request = pending.get(reply.id);
      pending.delete(reply.id);
      if (reply.kind === "sliced") request?.resolve(reply.bytes);
      else request?.reject(new Error(`PDF slice failed: ${reply.message}`));
    });
    created.on("error", (error) =>
      lost(new SliceWorkerLost(`the PDF slice worker crashed: ${error.message}`)),
    );
    created.on("exit", (code) => lost(new SliceWorkerLost(`the PDF slice worker exited with code ${code}`)));
    worker = created;
    return created;
  }

  const post = (message: WorkerRequest) => started().postMessage(message);

  started();
  return {
    forget: (sha256) => worker?.postMessage({ kind: "forget", sha256 } satisfies WorkerRequest),
    slice(sha256, path, start, end) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        post({ kind: "slice", id, sha256, path, start, end });
      });
    },
    clean(bytes) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        post({ kind: "clean", id, bytes });
      });
    },
    async close() {
      await worker?.terminate();
    },
  };
}
