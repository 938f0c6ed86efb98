/**
 * A stand-in extractor worker for pool tests: a document of N bytes has N pages, a page is its index.
 * `?crash=owner` exits when opening a 1-byte document; `?crashHelperOnce=FILE` makes the first helper asked
 * to read a range exit, and `?failHelperOnce=FILE` answer with an error, once (FILE marks that it happened);
 * `?started=FOLDER` writes a file named by the thread's id into FOLDER when the thread starts, and with
 * `&threads=N` no range is read before N threads have started (so a helper is up before the owner is done).
 */
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parentPort, threadId } from "node:worker_threads";
import { decodePages, encodeForTransfer, type WorkerMessage, type WorkerRequest } from "./worker-protocol.ts";

const port = parentPort;
if (port === null) throw new Error("stand-in-worker.ts must run in a worker thread.");
const settings = new URL(import.meta.url).searchParams;
const crashFlag = settings.get("crashHelperOnce");
const failFlag = settings.get("failHelperOnce");
const documents = new Map<number, { role: "owner" | "helper"; pages: number[] }>();
const startedFolder = settings.get("started");
if (startedFolder !== null) writeFileSync(path.join(startedFolder, String(threadId)), "");

async function threadsStarted(): Promise<void> {
  const wanted = Number(settings.get("threads") ?? 0);
  for (let waited = 0; startedFolder !== null && readdirSync(startedFolder).length < wanted; waited += 5) {
    if (waited > 20_000)
      throw new Error(`only ${readdirSync(startedFolder).length} of ${wanted} threads started`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function handle(request: WorkerRequest): Promise<void> {
  const reply = (message: WorkerMessage): void => port?.postMessage(message);
  const { id } = request;
  const document = documents.get(id);
  switch (request.type) {
    case "open":
      if (request.bytes.length === 1 && settings.get("crash") === "owner") process.exit(7);
      documents.set(id, { role: request.role, pages: [] });
      reply({ id, type: "opened", pageCount: request.bytes.length });
      return;
    case "read": {
      if (document === undefined) throw new Error("not open");
      await threadsStarted();
      if (document.role === "helper" && crashFlag !== null && !existsSync(crashFlag)) {
        writeFileSync(crashFlag, "crashed");
        process.exit(9);
      }
      if (document.role === "helper" && failFlag !== null && !existsSync(failFlag)) {
        writeFileSync(failFlag, "failed");
        throw new Error("the helper could not read this range");
      }
      // Slow enough that a helper joins while the owner is still reading.
      await new Promise((resolve) => setTimeout(resolve, 5));
      const range: number[] = [];
      for (let page = request.first; page < request.end; page++) {
        range.push(page);
        reply({ id, type: "page" });
      }
      if (document.role === "owner") {
        document.pages.push(...range);
        reply({ id, type: "read" });
      } else {
        reply({ id, type: "pages", data: encodeForTransfer(range.map((index) => ({ info: { index } }))) });
      }
      return;
    }
    case "adopt":
      document?.pages.push(...decodePages(request.data).map((page) => page.info.index));
      return;
    case "assemble": {
      const pages = [...(document?.pages ?? [])].sort((a, b) => a - b);
      documents.delete(id);
      reply({ id, type: "result", data: encodeForTransfer({ pageCount: pages.length, pages }) });
      return;
    }
    case "drop":
      documents.delete(id);
      return;
  }
}

let queue: Promise<void> = Promise.resolve();
port.on("message", (request: WorkerRequest) => {
  queue = queue.then(() =>
    handle(request).catch((error: unknown) =>
      port.postMessage({
        id: request.id,
        type: "error",
        request: request.type,
        error: { name: "Error", message: String(error) },
      } satisfies WorkerMessage),
    ),
  );
});
