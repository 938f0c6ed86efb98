/** The NDJSON answer stream on a real Node server: when lines reach a client, and what happens when it leaves. */
import type { AddressInfo } from "node:net";
import { Worker } from "node:worker_threads";
import { type ServerType, serve } from "@hono/node-server";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AskStreamLine } from "../../sdk/core/wire.ts";
import type { Logger } from "../logger.ts";
import { ndjsonResponse } from "./ndjson-response.ts";

interface Arrival {
  line: string;
  /** Wall-clock time (ms) the client read it. */
  at: number;
}

// The client runs in its own thread, so it reads while the server's thread is busy.
const clientSource = `
const { parentPort, workerData } = require("node:worker_threads");
(async () => {
  const response = await fetch(workerData.url, { method: "POST" });
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const at = performance.timeOrigin + performance.now();
    buffered += decoder.decode(value, { stream: true });
    for (let end = buffered.indexOf("\\n"); end >= 0; end = buffered.indexOf("\\n")) {
      parentPort.postMessage({ line: buffered.slice(0, end), at });
      buffered = buffered.slice(end + 1);
    }
  }
  parentPort.postMessage({ end: true });
})().catch((error) => parentPort.postMessage({ error: String(error) }));
`;

function readInAnotherThread(url: string): Promise<Arrival[]> {
  const worker = new Worker(clientSource, { eval: true, workerData: { url } });
  const arrivals: Arrival[] = [];
  return new Promise<Arrival[]>((resolve, reject) => {
    worker.on("message", (message: Arrival | { end: true } | { error: string }) => {
      if ("error" in message) reject(new Error(message.error));
      else if ("end" in message) resolve(arrivals);
      else arrivals.push(message);
    });
    worker.on("error", reject);
  }).finally(() => worker.terminate());
}

const wallClock = () => performance.timeOrigin + performance.now();

/** CPU work that awaits only settled promises, as an embedded PGlite query does: it never lets the event loop turn. */
async function workInMicrotasks(ms: number): Promise<void> {
  const until = performance.now() + ms;
  while (performance.now() < until) await Promise.resolve();
}

interface LogLine {
  level: "info" | "warn" | "error";
  message: string;
  details: Record<string, unknown> | undefined;
}

function recordingLogger(): Logger & { lines: LogLine[] } {
  const lines: LogLine[] = [];
  return {
    lines,
    info: (message, details) => lines.push({ level: "info", message, details }),
    warn: (message, details) => lines.push({ level: "warn", message, details }),
    error: (message, details) => lines.push({ level: "error", message, details }),
  };
}

let server: ServerType | undefined;

afterEach(async () => {
  await new Promise<void>((resolve, reject) => {
    if (!server) return resolve();
    server.close((error) => (error ? reject(error) : resolve()));
    if ("closeAllConnections" in server) server.closeAllConnections();
  });
  server = undefined;
});

async function serveAnswer(
  answer: (signal: AbortSignal) => AsyncGenerator<AskStreamLine>,
  options: { logger?: Logger; finishWithoutReaderMs?: number } = {},
): Promise<string> {
  const logger = options.logger ?? recordingLogger();
  server = serve({
    fetch: () =>
      ndjsonResponse(answer, {
        requestId: "req_test",
        logger,
        ...(options.finishWithoutReaderMs ? { finishWithoutReaderMs: options.finishWithoutReaderMs } : {}),
      }),
    hostname: "127.0.0.1",
    port: 0,
  });
  await new Promise<void>((resolve) => server!.once("listening", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

describe("an NDJSON answer stream", () => {
  it("delivers the status line while retrieval is still running in the embedded database", async () => {
    let retrievalFinished = 0;
    const url = await serveAnswer(async function* () {
      yield { type: "status", stage: "retrieving", message: "Searching the sources" };
      await workInMicrotasks(300);
      retrievalFinished = wallClock();
      yield { type: "activity", name: "search", detail: { query: "q", passages: 0 } };
      yield { type: "done", id_message: "msg_1", refusal: true, usage: { passages_read: 0, ms: 300 } };
    });
    const arrivals = await readInAnotherThread(url);
    expect(arrivals.map((arrival) => JSON.parse(arrival.line).type)).toEqual(["status", "activity", "done"]);
    expect(arrivals[0]!.at).toBeLessThan(retrievalFinished);
  }, 10_000);

  it("finishes the answer for a client that left after the first line, and logs one line without a stack", async () => {
    const logger = recordingLogger();
    let finished: () => void = () => {};
    const answerFinished = new Promise<void>((resolve) => {
      finished = resolve;
    });
    const saved: string[] = [];
    const url = await serveAnswer(
      async function* () {
        yield { type: "status", stage: "retrieving", message: "Searching the sources" };
        await new Promise((resolve) => setTimeout(resolve, 200));
        yield {
          type: "utterance",
          id_message: "msg_1",
          text: "An answer.",
          claims: [],
          references: [],
          numbering: {},
        };
        saved.push("msg_1");
        yield { type: "done", id_message: "msg_1", refusal: false, usage: { passages_read: 1, ms: 200 } };
        finished();
      },
      { logger },
    );
    const controller = new AbortController();
    const response = await fetch(url, { method: "POST", signal: controller.signal });
    const reader = response.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(JSON.parse(first)).toMatchObject({ type: "status" });
    controller.abort();
    await answerFinished;
    expect(saved).toEqual(["msg_1"]);
    await vi.waitFor(() => expect(logger.lines.length).toBeGreaterThan(0));
    expect(logger.lines).toEqual([
      expect.objectContaining({ level: "info", details: expect.objectContaining({ cut_short: false }) }),
    ]);
    expect(JSON.stringify(logger.lines)).not.toMatch(/\bat |stack/);
  }, 5_000);

  it("stops an answer whose client left once it has run on for the time allowed", async () => {
    const logger = recordingLogger();
    let stopped: (reason: unknown) => void = () => {};
    const answerStopped = new Promise<unknown>((resolve) => {
      stopped = resolve;
    });
    const url = await serveAnswer(
      async function* (signal) {
        yield { type: "status", stage: "composing", message: "Writing" };
        await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
        stopped(signal.reason);
      },
      { logger, finishWithoutReaderMs: 100 },
    );
    const controller = new AbortController();
    const response = await fetch(url, { method: "POST", signal: controller.signal });
    await response.body!.getReader().read();
    const left = performance.now();
    controller.abort();
    await answerStopped;
    expect(performance.now() - left).toBeGreaterThanOrEqual(90);
  }, 5_000);
});
