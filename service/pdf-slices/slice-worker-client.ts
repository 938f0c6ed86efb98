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

/** The worker took longer than the client allows: it was stopped, and the document is suspect. */
export class SliceTimedOut extends Error {}

/** Long enough for a whole parse of a large damaged file; a worker busy longer is stuck. */
const defaultSliceTimeoutMs = 30_000;

export function createSliceWorkerClient(timeoutMs = defaultSliceTimeoutMs): SliceWorkerClient {
  let worker: Worker | null = null;
  let nextId = 0;
  const pending = new Map<
    number,
    {
      resolve: (bytes: Uint8Array<ArrayBuffer>) => void;
      reject: (error: Error) => void;
      timer: NodeJS.Timeout;
    }
  >();

  /** Every request still waiting fails with `error`; the next request starts a new worker. */
  function lost(error: Error): void {
    worker = null;
    for (const request of pending.values()) {
      clearTimeout(request.timer);
      request.reject(error);
    }
    pending.clear();
  }

  function started(): Worker {
    if (worker) return worker;
    const created = new Worker(workerUrl);
    // The worker never keeps the process alive; the HTTP server does while there is work.
    created.unref();
    created.on("message", (reply: WorkerReply) => {
      const request = pending.get(reply.id);
      if (!request) return;
      pending.delete(reply.id);
      clearTimeout(request.timer);
      if (reply.kind === "sliced") request.resolve(reply.bytes);
      else request.reject(new Error(`PDF slice failed: ${reply.message}`));
    });
    // A worker stopped after a timeout has already been replaced: its last events concern no one.
    created.on("error", (error) => {
      if (worker === created) lost(new SliceWorkerLost(`the PDF slice worker crashed: ${error.message}`));
    });
    created.on("exit", (code) => {
      if (worker === created) lost(new SliceWorkerLost(`the PDF slice worker exited with code ${code}`));
    });
    worker = created;
    return created;
  }

  function request(message: WorkerRequest & { id: number }): Promise<Uint8Array<ArrayBuffer>> {
    const target = started();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        pending.delete(message.id);
        reject(new SliceTimedOut(`the PDF slice worker took over ${timeoutMs} ms and was stopped`));
        lost(new SliceWorkerLost("the PDF slice worker was stopped: another request took too long"));
        void target.terminate();
      }, timeoutMs);
      timer.unref();
      pending.set(message.id, { resolve, reject, timer });
      target.postMessage(message);
    });
  }

  started();
  return {
    forget: (sha256) => worker?.postMessage({ kind: "forget", sha256 } satisfies WorkerRequest),
    slice: (sha256, path, start, end) => request({ kind: "slice", id: nextId++, sha256, path, start, end }),
    clean: (bytes) => request({ kind: "clean", id: nextId++, bytes }),
    async close() {
      const closing = worker;
      lost(new SliceWorkerLost("the PDF slicer was closed"));
      await closing?.terminate();
    },
  };
}
