/**
 * A stand-in extractor worker for pool tests: a document of N bytes has N pages, a page is its index.
 * `?crash=owner` exits when opening a 1-byte document; `?crashHelperOnce=FILE` makes the first helper asked
 * to read a range exit (with `&crashAtRead=K`, at its K-th range), and `?failHelperOnce=FILE` answer with an
 * error, once (FILE marks that it happened); `?holdFirstRangeMs=MS` answers each thread's first range MS
 * later, while it goes on with the next ones, as a range waiting for OCR is; the owner's result lists the
 * first pages of its ranges in the order it answered them (`answered`);
 * `?started=FOLDER` writes a file named by the thread's id into FOLDER when the thread starts, and with
 * `&threads=N` no range is read before N threads have started (so a helper is up before the owner is done).
 */
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parentPort, threadId } from "node:worker_threads";
import {
  decodePages,
  encodeForTransfer,
  type WorkerMessage,
  type WorkerRequest,
} from "../worker-protocol.ts";

const port = parentPort;
if (port === null) throw new Error("stand-in-worker.ts must run in a worker thread.");
const settings = new URL(import.meta.url).searchParams;
const crashFlag = settings.get("crashHelperOnce");
const failFlag = settings.get("failHelperOnce");
const crashAtRead = Number(settings.get("crashAtRead") ?? 1);
const holdFirstRangeMs = Number(settings.get("holdFirstRangeMs") ?? 0);
let rangesRead = 0;
const documents = new Map<number, { role: "owner" | "helper"; pages: number[]; answered: number[] }>();
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
      documents.set(id, { role: request.role, pages: [], answered: [] });
      reply({ id, type: "opened", pageCount: request.bytes.length });
      return;
    case "read": {
      if (document === undefined) throw new Error("not open");
      await threadsStarted();
      rangesRead++;
      const helperReads = document.role === "helper" ? rangesRead : 0;
      if (helperReads >= crashAtRead && crashFlag !== null && !existsSync(crashFlag)) {
        writeFileSync(crashFlag, "crashed");
        process.exit(9);
      }
      if (document.role === "helper" && failFlag !== null && !existsSync(failFlag)) {
        writeFileSync(failFlag, "failed");
        throw new Error("the helper could not read this range");
      }
      // Slow enough that a helper joins while the owner is still reading.
      await new Promise((resolve) => setTimeout(resolve, 5));
      const { first } = request;
      const range: number[] = [];
      for (let page = first; page < request.end; page++) range.push(page);
      const answer = (): void => {
        for (const _ of range) reply({ id, type: "page" });
        document.answered.push(first);
        if (document.role === "owner") {
          document.pages.push(...range);
          reply({ id, type: "read", first });
        } else {
          const data = encodeForTransfer(range.map((index) => ({ info: { index } })));
          reply({ id, type: "pages", first, data });
        }
      };
      if (rangesRead === 1 && holdFirstRangeMs > 0) setTimeout(answer, holdFirstRangeMs);
      else answer();
      return;
    }
    case "adopt":
      document?.pages.push(...decodePages(request.data).map((page) => page.info.index));
      return;
    case "assemble": {
      const pages = [...(document?.pages ?? [])].sort((a, b) => a - b);
      documents.delete(id);
      const answered = document?.answered ?? [];
      reply({ id, type: "result", data: encodeForTransfer({ pageCount: pages.length, pages, answered }) });
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
