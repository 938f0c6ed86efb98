/**
 * A local stand-in for an embeddings or rerank model server (none can run here): it takes JSON, replies
 * as a test scripts it, and counts the requests it holds at once and those the client gave up on.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

/** One request as the stand-in received it. */
export interface ModelServerRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
  /** `performance.now()` when the request arrived. */
  receivedAt: number;
}

/** What the stand-in does with one request. */
export type ModelServerReply =
  | { kind: "json"; body: unknown; status?: number; headers?: Record<string, string>; delayMs?: number }
  /** `body` verbatim, e.g. malformed JSON. */
  | { kind: "text"; body: string; status?: number; headers?: Record<string, string> }
  /** Accepts the request and never answers. */
  | { kind: "hang" }
  /** Cuts the connection without answering. */
  | { kind: "drop" };

/** Replies to the request; `sequence` counts requests from 0. */
export type ModelServerScript = (
  request: ModelServerRequest,
  sequence: number,
) => ModelServerReply | Promise<ModelServerReply>;

export interface ModelServerStandIn {
  /** The API root a client is given, ending in `/v1`. */
  readonly baseUrl: string;
  /** `http://127.0.0.1:port`, for servers (TEI) without `/v1`. */
  readonly origin: string;
  /** Every request received, oldest first. */
  readonly requests: readonly ModelServerRequest[];
  /** The most requests held at one time. */
  readonly peakInFlight: number;
  /** Requests whose connection closed before the stand-in answered. */
  readonly abandoned: number;
  /** Close and cut every open connection; closing twice is harmless. */
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts the stand-in on 127.0.0.1 and a free port.
 *
 * @example
 * const standIn = await startModelServerStandIn(() => ({ kind: "json", body: { data: [] } }));
 */
export async function startModelServerStandIn(script: ModelServerScript): Promise<ModelServerStandIn> {
  const requests: ModelServerRequest[] = [];
  let inFlight = 0;
  let peakInFlight = 0;
  let abandoned = 0;
  let closing = false;

  const server = createServer((request, response) => {
    inFlight += 1;
    peakInFlight = Math.max(peakInFlight, inFlight);
    response.on("close", () => {
      inFlight -= 1;
      if (!response.writableFinished && !closing) abandoned += 1;
    });
    const answer = async () => {
      const text = await readBody(request);
      const recorded: ModelServerRequest = {
        path: new URL(request.url ?? "/", "http://stand-in").pathname,
        headers: request.headers,
        body: text ? (JSON.parse(text) as unknown) : undefined,
        receivedAt: performance.now(),
      };
      const sequence = requests.push(recorded) - 1;
      const reply = await script(recorded, sequence);
      switch (reply.kind) {
        case "hang":
          return;
        case "drop":
          response.socket?.destroy();
          return;
        case "text":
          response.writeHead(reply.status ?? 200, { "Content-Type": "application/json", ...reply.headers });
          response.end(reply.body);
          return;
        case "json":
          if (reply.delayMs) await sleep(reply.delayMs);
          if (response.destroyed) return;
          response.writeHead(reply.status ?? 200, { "Content-Type": "application/json", ...reply.headers });
          response.end(JSON.stringify(reply.body));
          return;
      }
    };
    answer().catch((error: unknown) => {
      const message = `stand-in failed: ${error instanceof Error ? error.message : String(error)}`;
      if (response.headersSent) return response.destroy(new Error(message));
      response.writeHead(500, { "Content-Type": "text/plain" });
      response.end(message);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    baseUrl: `${origin}/v1`,
    origin,
    requests,
    get peakInFlight() {
      return peakInFlight;
    },
    get abandoned() {
      return abandoned;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        closing = true;
        if (!server.listening) return resolve();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** An address nothing listens on: a port that was free a moment ago. */
export async function refusedBaseUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/v1`;
}
