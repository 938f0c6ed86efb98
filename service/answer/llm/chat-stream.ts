/** Streams the text of one chat completion from an OpenAI-compatible endpoint, with one error type for every failure. */
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError } from "openai";
import { z } from "zod";
import type { ChatMessage } from "./prompt.ts";

export type LlmFailure = "timeout" | "http" | "connection" | "protocol";

/** The model could not give an answer: timed out, refused the request, was unreachable or spoke garbage. */
export class LlmError extends Error {
  readonly failure: LlmFailure;
  readonly status: number | undefined;
  constructor(failure: LlmFailure, message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = "LlmError";
    this.failure = failure;
    this.status = options.status;
  }
}

export interface ChatStreamOptions {
  baseUrl: string;
  model: string;
  apiKey: string;
  fetch?: typeof fetch;
  /** Longest silence allowed: before the first chunk and between two chunks. */
  timeoutMs: number;
  /** Retries before the first byte (5xx, 429, connection errors); never once the stream has begun. */
  maxRetries: number;
}

export interface ChatStream {
  /** The completion's text, piece by piece; ends quietly when `signal` aborts (the caller went away). */
  streamText(messages: readonly ChatMessage[], signal?: AbortSignal): AsyncGenerator<string>;
}

// Upstream JSON is checked at the edge: a chunk without `choices` is a protocol error, not a crash.
const chunkSchema = z.looseObject({
  choices: z.array(
    z.looseObject({
      delta: z.looseObject({ content: z.string().nullish() }).nullish(),
      finish_reason: z.string().nullish(),
    }),
  ),
});

function toLlmError(error: unknown): LlmError {
  if (error instanceof LlmError) return error;
  if (error instanceof APIConnectionTimeoutError)
    return new LlmError("timeout", "the model did not answer in time", { cause: error });
  if (error instanceof APIConnectionError)
    return new LlmError("connection", `cannot reach the model: ${error.message}`, { cause: error });
  if (error instanceof APIError) {
    const status = typeof error.status === "number" ? error.status : undefined;
    return new LlmError(status === undefined ? "protocol" : "http", `the model failed: ${error.message}`, {
      ...(status === undefined ? {} : { status }),
      cause: error,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new LlmError("protocol", `unreadable model stream: ${message}`, { cause: error });
}

export function createChatStream(options: ChatStreamOptions): ChatStream {
  const client = new OpenAI({
    baseURL: options.baseUrl,
    apiKey: options.apiKey,
    timeout: options.timeoutMs,
    maxRetries: options.maxRetries,
    // Failures reach the caller as LlmError and are logged there, once, as JSON.
    logLevel: "off",
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  return {
    async *streamText(messages, signal) {
      const silence = new AbortController();
      let timer = setTimeout(() => silence.abort(), options.timeoutMs);
      const restartTimer = () => {
        clearTimeout(timer);
        timer = setTimeout(() => silence.abort(), options.timeoutMs);
      };
      const combined = signal ? AbortSignal.any([signal, silence.signal]) : silence.signal;
      const timedOut = () => new LlmError("timeout", `the model was silent for ${options.timeoutMs} ms`);
      let finished = false;
      try {
        const stream = await client.chat.completions.create(
          { model: options.model, messages: [...messages], stream: true },
          { signal: combined },
        );
        for await (const raw of stream) {
          // The clock stops while the caller handles a piece: only the model's silence counts.
          clearTimeout(timer);
          const chunk = chunkSchema.safeParse(raw);
          if (!chunk.success) throw new LlmError("protocol", "a stream chunk is not a chat.completion.chunk");
          for (const choice of chunk.data.choices) {
            if (choice.delta?.content) yield choice.delta.content;
            if (choice.finish_reason) finished = true;
          }
          restartTimer();
        }
      } catch (error) {
        // The asker went away: a normal end, not a model failure (openai/openai-node#682).
        if (signal?.aborted) return;
        if (silence.signal.aborted) throw timedOut();
        throw toLlmError(error);
      } finally {
        clearTimeout(timer);
      }
      // The client ends an aborted stream quietly: tell a timeout and a truncated stream from the end.
      if (signal?.aborted) return;
      if (silence.signal.aborted) throw timedOut();
      if (!finished) throw new LlmError("protocol", "the stream ended before the model finished");
    },
  };
}
