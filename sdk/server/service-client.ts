/** ServiceClient: typed calls to the service's public API (ask, rag, PDF slice, PDF refresh); holds the API key. */
import { z } from "zod";
import { type AnswerState, readAnswers } from "../core/index.ts";
import { publicPaths } from "../core/service-paths.ts";
import {
  type AskRequest,
  type PdfRefreshRequest,
  type PdfToken,
  pdfRefreshResponseSchema,
  pdfSliceHeaders,
  type RagRequest,
  type RagResponse,
  ragResponseSchema,
  type SourceList,
  sourceListSchema,
} from "../core/wire.ts";
import type { BackoffOptions } from "./retry-policy.ts";
import { assertServerRuntime } from "./server-only.ts";
import {
  contractBreach,
  createServiceTransport,
  readJson,
  type ServiceCallOptions,
} from "./service-transport.ts";

export type { ServiceCallOptions } from "./service-transport.ts";

export interface ServiceClientOptions {
  /** The service's base URL from its sharing area, e.g. `https://cited.example.com`. */
  baseUrl: string;
  /** `asst_…` from the sharing area. */
  assistantId: string;
  /** The assistant key (scopes `ask` and/or `rag`). Server secrets only. */
  apiKey: string;
  fetch?: typeof fetch;
  /** Retries after the first attempt. Default 2. */
  maxRetries?: number;
  /** Per attempt, until the response headers (and, except for `ask`, the whole body). Default 60,000. */
  timeoutMs?: number;
  /** Backoff between retries: 0.5 s doubling up to 8 s by default. Tests make it small. */
  backoff?: BackoffOptions;
}

/** An ask response whose NDJSON body has not been read: pass `body` to `readAnswers`, or relay it. */
export interface AskStream {
  body: ReadableStream<Uint8Array>;
  requestId: string | null;
}

/** A PDF slice: its pages start at the document's 0-based page `sliceStart`; `documentPageCount` counts the whole document's. */
export interface PdfSlice {
  bytes: Uint8Array<ArrayBuffer>;
  sliceStart: number;
  documentPageCount: number;
  requestId: string | null;
}

/** An uploaded image as the service serves it: its bytes as uploaded, and their type. */
export interface ServedImage {
  bytes: Uint8Array<ArrayBuffer>;
  contentType: "image/png" | "image/jpeg" | "image/tiff" | "image/webp";
  requestId: string | null;
}

const imageTypeSchema = z.enum(["image/png", "image/jpeg", "image/tiff", "image/webp"]);

export interface ServiceClient {
  readonly assistantId: string;
  /** Starts an answer in session `session` (a UUID) and returns its stream once the headers arrived. */
  ask(session: string, body: AskRequest, options?: ServiceCallOptions): Promise<AskStream>;
  /** `ask`, reduced: one `AnswerState` per answer-changing line, ending with the done (or error) answer. */
  askAnswers(
    session: string,
    body: AskRequest,
    options?: ServiceCallOptions,
  ): AsyncGenerator<AnswerState, void, undefined>;
  /** Ranked passages for the caller's own model. */
  rag(body: RagRequest, options?: ServiceCallOptions): Promise<RagResponse>;
  /** The documents the assistant answers from (at most 200, oldest first) and how many there are. */
  sources(options?: ServiceCallOptions): Promise<SourceList>;
  /** The 3-page slice around `page` of the reference behind `token`, for user `externalUserId`. */
  pdf(token: string, page: number, externalUserId: string, options?: ServiceCallOptions): Promise<PdfSlice>;
  /** The uploaded image an `image` reference with a region quotes (`reference.image.token`), for `externalUserId`. */
  image(token: string, externalUserId: string, options?: ServiceCallOptions): Promise<ServedImage>;
  /** Renews an expired PDF or image token (once per token). */
  refresh(body: PdfRefreshRequest, options?: ServiceCallOptions): Promise<PdfToken>;
}

const sliceHeaderSchema = z
  .string()
  .regex(/^\d{1,9}$/)
  .transform(Number);

/**
 * Creates the client of the service's public API. It sends `Authorization: Bearer <apiKey>`,
 * `X-App-Code: selfserve` and `X-Cited-SDK-Version` on every call, validates every JSON body
 * with the `sdk/core` schemas, and throws the typed errors of `sdk/core/api-errors.ts`
 * (`AuthenticationError`, `RateLimitError`, …) with the status, problem `code` and `X-Request-ID`.
 * It refuses to run in a browser: the key must stay on the server.
 *
 * Retry policy:
 * - Only before the first byte of a successful response body: a stream that has started is
 *   never replayed.
 * - Retried: 408, 429, 502, 503, 504, network failures and timeouts; nothing else (4xx mean
 *   the request itself is wrong, 500 means the service failed at it).
 * - At most `maxRetries` (default 2) retries, after `Retry-After` when the response sent one
 *   (a longer one than 60 s is thrown at once), else a jittered exponential backoff from 0.5 s
 *   up to 8 s.
 * - The sleep is abortable, and nothing is retried once the caller's signal has aborted: the
 *   call rejects with the signal's reason.
 * - A timeout (`timeoutMs` per attempt) gives `ApiTimeoutError`; no response at all,
 *   `ApiConnectionError`.
 *
 * @example
 * const service = createServiceClient({ baseUrl, assistantId, apiKey: process.env.CITED_API_KEY! });
 * for await (const answer of service.askAnswers(crypto.randomUUID(), { id_user: "u1", message: "What is R?" })) {
 *   console.log(answer.text);
 * }
 */
export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  assertServerRuntime("createServiceClient");
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const send = createServiceTransport(options);

  const client: ServiceClient = {
    assistantId: options.assistantId,

    async ask(session, body, callOptions) {
      const open = await send(
        {
          url: `${baseUrl}${publicPaths.ask(options.assistantId, session)}`,
          method: "POST",
          json: body,
          headers: { Accept: "application/x-ndjson" },
        },
        callOptions,
      );
      const { response, requestId } = open;
      if (!/^application\/x-ndjson\b/i.test(response.headers.get("Content-Type") ?? "") || !response.body) {
        await response.body?.cancel();
        open.release();
        throw contractBreach(response, requestId, "something other than an NDJSON stream");
      }
      open.release();
      return { body: response.body, requestId };
    },

    async *askAnswers(session, body, callOptions = {}) {
      const { body: stream } = await client.ask(session, body, callOptions);
      yield* readAnswers(stream, callOptions.signal ? { signal: callOptions.signal } : {});
    },

    async rag(body, callOptions) {
      const open = await send(
        { url: `${baseUrl}${publicPaths.rag(options.assistantId)}`, method: "POST", json: body },
        callOptions,
      );
      return open.read((response) => readJson(response, ragResponseSchema, open.requestId));
    },

    async sources(callOptions) {
      const open = await send(
        { url: `${baseUrl}${publicPaths.sources(options.assistantId)}`, method: "GET" },
        callOptions,
      );
      return open.read((response) => readJson(response, sourceListSchema, open.requestId));
    },

    async pdf(token, page, externalUserId, callOptions) {
      const open = await send(
        {
          url: `${baseUrl}${publicPaths.pdfPage(token, page)}`,
          method: "GET",
          headers: { Accept: "application/pdf", "X-External-User-Id": externalUserId },
        },
        callOptions,
      );
      const { response, requestId } = open;
      const bytes = await open.read(async (body) => new Uint8Array(await body.arrayBuffer()));
      const sliceStart = sliceHeaderSchema.safeParse(response.headers.get(pdfSliceHeaders.sliceStart));
      const pageCount = sliceHeaderSchema.safeParse(response.headers.get(pdfSliceHeaders.pageCount));
      if (!/^application\/pdf\b/i.test(response.headers.get("Content-Type") ?? "")) {
        throw contractBreach(response, requestId, "something other than a PDF");
      }
      if (!sliceStart.success || !pageCount.success) {
        throw contractBreach(
          response,
          requestId,
          `no valid ${pdfSliceHeaders.sliceStart}/${pdfSliceHeaders.pageCount} headers`,
        );
      }
      return { bytes, sliceStart: sliceStart.data, documentPageCount: pageCount.data, requestId };
    },

    async image(token, externalUserId, callOptions) {
      const open = await send(
        {
          url: `${baseUrl}${publicPaths.image(token)}`,
          method: "GET",
          headers: { Accept: "image/*", "X-External-User-Id": externalUserId },
        },
        callOptions,
      );
      const { response, requestId } = open;
      const bytes = await open.read(async (body) => new Uint8Array(await body.arrayBuffer()));
      const contentType = imageTypeSchema.safeParse(
        response.headers.get("Content-Type")?.split(";")[0]?.trim(),
      );
      if (!contentType.success) throw contractBreach(response, requestId, "something other than an image");
      return { bytes, contentType: contentType.data, requestId };
    },

    async refresh(body, callOptions) {
      const open = await send(
        { url: `${baseUrl}${publicPaths.pdfRefresh}`, method: "POST", json: body },
        callOptions,
      );
      return open.read((response) => readJson(response, pdfRefreshResponseSchema, open.requestId));
    },
  };
  return client;
}
