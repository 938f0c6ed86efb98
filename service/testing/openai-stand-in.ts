/**
 * A local stand-in for a remote OpenAI-compatible chat model (none can run here): it speaks the
 * chat-completions protocol, streaming included, and replies as a test scripts it.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "zod";

const chatRequestSchema = z.looseObject({
  model: z.string().min(1),
  messages: z.array(z.looseObject({ role: z.string(), content: z.unknown() })).min(1),
  stream: z.boolean().optional(),
});

export type ChatRequestBody = z.infer<typeof chatRequestSchema>;

/** One request as the stand-in received it. */
export interface StandInRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: ChatRequestBody;
}

/** What the stand-in does with one request. */
export type StandInReply =
  | {
      kind: "stream";
      /**
       * The answer text: a string is sent in pieces of `pieceLength` characters; an array as its
       * pieces, where a promise holds the stream until it settles (to show a client reads as it goes).
       */
      content: string | ReadonlyArray<string | Promise<unknown>>;
      pieceLength?: number;
      /** Pause before each piece. */
      delayMs?: number;
      /** How the stream ends: `finish_reason` then `[DONE]`, silence with the connection open, or a cut connection. */
      end?: "done" | "hang" | "drop";
    }
  | { kind: "status"; status: number; body?: string }
  /** Accepts the request and never answers. */
  | { kind: "hang" }
  /** A 200 event stream whose body is `body`, verbatim (malformed server-sent events). */
  | { kind: "garbage"; body: string };

export type StandInScript = (request: StandInRequest) => StandInReply;

export interface OpenAiStandIn {
  /** The API base URL a client is given, ending in `/v1`. */
  readonly baseUrl: string;
  /** Every chat-completions request received, oldest first. */
  readonly requests: readonly StandInRequest[];
  /** Replies used once each, in order, before the script. */
  enqueue(...replies: StandInReply[]): void;
  /** Replies to every request the queue does not cover. */
  script(reply: StandInScript): void;
  /** Stops listening and cuts every open connection; closing twice is harmless. */
  close(): Promise<void>;
}

/** The text of the request's messages, e.g. to find the marker a scripted reply should cite. */
export function promptText(request: StandInRequest): string {
  return request.body.messages
    .map((message) =>
      typeof message.content === "string" ? message.content : JSON.stringify(message.content),
    )
    .join("\n");
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "Content-Type": "application/json" });
  response.end(JSON.stringify(body));
}

function openAiError(response: ServerResponse, status: number, message: string): void {
  sendJson(response, status, { error: { message, type: "invalid_request_error", param: null, code: null } });
}

function pieces(content: string, length: number): string[] {
  const result: string[] = [];
  for (let index = 0; index < content.length; index += length)
    result.push(content.slice(index, index + length));
  return result;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function streamReply(
  response: ServerResponse,
  model: string,
  reply: Extract<StandInReply, { kind: "stream" }>,
): Promise<void> {
  const id = `chatcmpl-${randomUUID()}`;
  const created = Math.floor(Date.now() / 1000);
  // Resolves once the chunk is handed to the socket, so a later cut cannot swallow it.
  const send = (delta: Record<string, string>, finishReason: string | null) =>
    new Promise<void>((resolve, reject) => {
      const chunk = {
        id,
        object: "chat.completion.chunk",
        created,
        model,
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      };
      response.write(`data: ${JSON.stringify(chunk)}\n\n`, (error) => (error ? reject(error) : resolve()));
    });
  response.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
  await send({ role: "assistant", content: "" }, null);
  const items =
    typeof reply.content === "string" ? pieces(reply.content, reply.pieceLength ?? 5) : reply.content;
  for (const item of items) {
    if (response.destroyed) return;
    if (typeof item !== "string") {
      await item;
      continue;
    }
    if (reply.delayMs) await sleep(reply.delayMs);
    if (response.destroyed) return;
    await send({ content: item }, null);
  }
  const end = reply.end ?? "done";
  if (end === "hang") return;
  if (end === "drop") {
    response.socket?.destroy();
    return;
  }
  await send({}, "stop");
  response.end("data: [DONE]\n\n");
}

async function wholeReply(
  response: ServerResponse,
  model: string,
  reply: Extract<StandInReply, { kind: "stream" }>,
): Promise<void> {
  const parts: string[] = [];
  for (const item of typeof reply.content === "string" ? [reply.content] : reply.content) {
    if (typeof item === "string") parts.push(item);
    else await item;
  }
  sendJson(response, 200, {
    id: `chatcmpl-${randomUUID()}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: { role: "assistant", content: parts.join("") },
        logprobs: null,
        finish_reason: "stop",
      },
    ],
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  });
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Starts the stand-in on 127.0.0.1 and a free port. Without a queued reply or a script it answers 500,
 * so a test that forgot to script it fails loudly.
 *
 * @example
 * const standIn = await startOpenAiStandIn();
 * standIn.script(() => ({ kind: "stream", content: "Use chvt 3 [1.2]." }));
 * const engine = createLlmEngine({ baseUrl: standIn.baseUrl, model: "test", apiKey: "none" });
 */
export async function startOpenAiStandIn(options: { script?: StandInScript } = {}): Promise<OpenAiStandIn> {
  const requests: StandInRequest[] = [];
  const queue: StandInReply[] = [];
  let script = options.script;

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? "/", "http://stand-in").pathname;
    if (request.method !== "POST" || path !== "/v1/chat/completions") {
      openAiError(response, 404, `no route ${request.method} ${path}`);
      return;
    }
    let json: unknown;
    try {
      json = JSON.parse(await readBody(request));
    } catch (error) {
      openAiError(response, 400, `body is not JSON: ${(error as Error).message}`);
      return;
    }
    const body = chatRequestSchema.safeParse(json);
    if (!body.success) {
      openAiError(response, 400, body.error.message);
      return;
    }
    const recorded = { path, headers: request.headers, body: body.data };
    requests.push(recorded);
    const reply = queue.shift() ?? script?.(recorded) ?? { kind: "status", status: 500 };
    switch (reply.kind) {
      case "status":
        if (reply.body !== undefined) {
          response.writeHead(reply.status, { "Content-Type": "application/json" });
          response.end(reply.body);
        } else openAiError(response, reply.status, `stand-in status ${reply.status}`);
        return;
      case "hang":
        return;
      case "garbage":
        response.writeHead(200, { "Content-Type": "text/event-stream" });
        response.end(reply.body);
        return;
      case "stream":
        if (body.data.stream) await streamReply(response, body.data.model, reply);
        else await wholeReply(response, body.data.model, reply);
        return;
    }
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) openAiError(response, 500, (error as Error).message);
      else response.destroy(error as Error);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    enqueue: (...replies) => {
      queue.push(...replies);
    },
    script: (reply) => {
      script = reply;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        if (!server.listening) return resolve();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
