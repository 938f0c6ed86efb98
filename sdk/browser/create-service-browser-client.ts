/** createServiceBrowserClient: the browser's typed client of the host endpoint (never of the service). */
import type { z } from "zod";
import { ApiConnectionError, apiErrorFrom, CitedApiError, SDK_VERSION } from "../core/index.ts";
import {
  type Conversation,
  conversationListSchema,
  conversationSchema,
  type DetailLevel,
  messageListSchema,
  pdfSliceHeaders,
  type RagResponse,
  ragResponseSchema,
  type ServiceUpdate,
  type StoredMessage,
  type TechnicalityLevel,
} from "../core/wire.ts";
import { readUpdates } from "./read-updates.ts";

export interface ServiceBrowserClientOptions {
  /** Where the host mounted `createServiceHandler`, e.g. `/api/cited`. */
  endpoint: string;
  /** A `fetch` that authenticates the user (cookies, or a bearer header). Default: the global fetch. */
  fetch?: typeof fetch;
}

export interface RequestOptions {
  signal?: AbortSignal;
}

export interface AskOptions extends RequestOptions {
  detail_level?: DetailLevel;
  technicality_level?: TechnicalityLevel;
}

export interface RagOptions extends RequestOptions {
  max_results?: number;
  datasource_ids?: string[];
}

export interface PdfOptions extends RequestOptions {
  /** Another page of a quote that spans pages; the reference's first page by default. */
  page?: number;
}

/** A PDF slice: its pages start at 0-based document page `sliceStart`; `documentPageCount` counts the whole document's. */
export interface BrowserPdfSlice {
  bytes: Uint8Array<ArrayBuffer>;
  sliceStart: number;
  documentPageCount: number;
}

export interface ServiceBrowserClient {
  createConversation(title?: string, options?: RequestOptions): Promise<Conversation>;
  listConversations(options?: RequestOptions): Promise<Conversation[]>;
  conversation(conversationId: string, options?: RequestOptions): Promise<Conversation>;
  /** The title is trimmed, 1 to 200 characters (else `UnprocessableEntityError`); the list order stays. */
  renameConversation(conversationId: string, title: string, options?: RequestOptions): Promise<Conversation>;
  /** Deletes the conversation with its messages; its answers' PDFs are no longer served. */
  deleteConversation(conversationId: string, options?: RequestOptions): Promise<void>;
  messages(conversationId: string, options?: RequestOptions): Promise<StoredMessage[]>;
  /** Answer snapshots as they stream, then `saved` with the stored message id. Abort with `signal`. */
  ask(
    conversationId: string,
    message: string,
    options?: AskOptions,
  ): AsyncGenerator<ServiceUpdate, void, undefined>;
  rag(query: string, options?: RagOptions): Promise<RagResponse>;
  pdf(messageId: string, referenceId: string, options?: PdfOptions): Promise<BrowserPdfSlice>;
  /** The slice of a PDF passage `rag` found for this user, by its `metadata.pdf.token`, at `page`. */
  passagePdf(token: string, page: number, options?: RequestOptions): Promise<BrowserPdfSlice>;
  /** The image of a passage `rag` found for this user read by OCR, by its `metadata.image.token`. */
  passageImage(token: string, options?: RequestOptions): Promise<Blob>;
  /** The uploaded image an `image` reference with a `region` quotes (PNG, JPEG, TIFF or WebP). */
  image(messageId: string, referenceId: string, options?: RequestOptions): Promise<Blob>;
}

/**
 * Creates the browser client. Every failure is a typed error of `sdk/core`: the handler's
 * problem details become `AuthenticationError` (401), `PermissionDeniedError` (403),
 * `UnprocessableEntityError` (422), `RateLimitError` (429), … with `requestId`; no response is
 * `ApiConnectionError`; a malformed stream is `AnswerStreamError`; an abort rejects with the
 * signal's reason. Responses are validated before they are returned.
 *
 * @example
 * const cited = createServiceBrowserClient({ endpoint: "/api/cited" });
 * const conversation = await cited.createConversation();
 * await cited.renameConversation(conversation.id, "Plotting");
 * for await (const update of cited.ask(conversation.id, "What is R?")) {
 *   if (update.type === "answer") render(update.answer);
 *   else console.log("saved as", update.messageId);
 * }
 */
export function createServiceBrowserClient(options: ServiceBrowserClientOptions): ServiceBrowserClient {
  const endpoint = options.endpoint.replace(/\/+$/, "");
  const fetchHost = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const path = (...segments: string[]) => `${endpoint}/${segments.map(encodeURIComponent).join("/")}`;

  async function send(url: string, init: RequestInit & { json?: unknown }): Promise<Response> {
    const { json, ...rest } = init;
    let response: Response;
    try {
      response = await fetchHost(url, {
        ...rest,
        headers: {
          "X-Cited-SDK-Version": SDK_VERSION,
          ...(json === undefined ? {} : { "Content-Type": "application/json" }),
        },
        ...(json === undefined ? {} : { body: JSON.stringify(json) }),
      });
    } catch (error) {
      if (init.signal?.aborted) throw init.signal.reason;
      throw new ApiConnectionError("Could not reach the app's server", { cause: error });
    }
    if (!response.ok) throw apiErrorFrom(response.status, await response.text(), response.headers);
    return response;
  }

  async function readJson<Schema extends z.ZodType>(
    response: Response,
    schema: Schema,
  ): Promise<z.output<Schema>> {
    const requestId = response.headers.get("X-Request-ID");
    let value: unknown;
    try {
      value = await response.json();
    } catch (cause) {
      throw new CitedApiError(`The app's server answered ${response.status} with a body that is not JSON`, {
        status: response.status,
        requestId,
        cause,
      });
    }
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    throw new CitedApiError(`The app's server answered ${response.status} with an unexpected body`, {
      status: response.status,
      requestId,
      cause: parsed.error,
    });
  }

  const signalOf = (requestOptions: RequestOptions | undefined) =>
    requestOptions?.signal ? { signal: requestOptions.signal } : {};

  return {
    async createConversation(title, requestOptions) {
      const response = await send(path("conversations"), {
        method: "POST",
        json: title === undefined ? {} : { title },
        ...signalOf(requestOptions),
      });
      return readJson(response, conversationSchema);
    },

    async listConversations(requestOptions) {
      const response = await send(path("conversations"), { method: "GET", ...signalOf(requestOptions) });
      return (await readJson(response, conversationListSchema)).conversations;
    },

    async conversation(conversationId, requestOptions) {
      const response = await send(path("conversations", conversationId), {
        method: "GET",
        ...signalOf(requestOptions),
      });
      return readJson(response, conversationSchema);
    },

    async renameConversation(conversationId, title, requestOptions) {
      const response = await send(path("conversations", conversationId), {
        method: "PATCH",
        json: { title },
        ...signalOf(requestOptions),
      });
      return readJson(response, conversationSchema);
    },

    async deleteConversation(conversationId, requestOptions) {
      const response = await send(path("conversations", conversationId), {
        method: "DELETE",
        ...signalOf(requestOptions),
      });
      // A 204 has no body; anything a host sends anyway is let go rather than left open.
      await response.body?.cancel();
    },

    async messages(conversationId, requestOptions) {
      const response = await send(path("conversations", conversationId, "messages"), {
        method: "GET",
        ...signalOf(requestOptions),
      });
      return (await readJson(response, messageListSchema)).messages;
    },

    async *ask(conversationId, message, askOptions = {}) {
      const { signal, detail_level, technicality_level } = askOptions;
      const response = await send(path("conversations", conversationId, "ask"), {
        method: "POST",
        json: { message, detail_level, technicality_level },
        ...signalOf(askOptions),
      });
      if (!/^application\/x-ndjson\b/i.test(response.headers.get("Content-Type") ?? "") || !response.body) {
        await response.body?.cancel();
        throw new CitedApiError("The app's server did not answer with an NDJSON stream", {
          status: response.status,
          requestId: response.headers.get("X-Request-ID"),
        });
      }
      yield* readUpdates(response.body, signal ? { signal } : {});
    },

    async rag(query, ragOptions = {}) {
      const { max_results, datasource_ids } = ragOptions;
      const response = await send(path("rag"), {
        method: "POST",
        json: { query, max_results, datasource_ids },
        ...signalOf(ragOptions),
      });
      return readJson(response, ragResponseSchema);
    },

    async pdf(messageId, referenceId, pdfOptions = {}) {
      const page = pdfOptions.page === undefined ? "" : `?page=${pdfOptions.page}`;
      return readSlice(
        await send(`${path("pdf", messageId, referenceId)}${page}`, {
          method: "GET",
          ...signalOf(pdfOptions),
        }),
      );
    },

    async image(messageId, referenceId, requestOptions = {}) {
      return readImage(
        await send(path("image", messageId, referenceId), { method: "GET", ...signalOf(requestOptions) }),
      );
    },

    async passageImage(token, requestOptions = {}) {
      return readImage(
        await send(path("passage-image", token), { method: "GET", ...signalOf(requestOptions) }),
      );
    },

    async passagePdf(token, page, requestOptions = {}) {
      return readSlice(
        await send(`${path("passage-pdf", token)}?page=${page}`, {
          method: "GET",
          ...signalOf(requestOptions),
        }),
      );
    },
  };
}

function readImage(response: Response): Promise<Blob> {
  if (!/^image\//i.test(response.headers.get("Content-Type") ?? "")) {
    throw new CitedApiError("The app's server sent something other than an image", {
      status: response.status,
      requestId: response.headers.get("X-Request-ID"),
    });
  }
  return response.blob();
}

async function readSlice(response: Response): Promise<BrowserPdfSlice> {
  const sliceStart = headerNumber(response, pdfSliceHeaders.sliceStart);
  const documentPageCount = headerNumber(response, pdfSliceHeaders.pageCount);
  return { bytes: new Uint8Array(await response.arrayBuffer()), sliceStart, documentPageCount };
}

function headerNumber(response: Response, name: string): number {
  const value = response.headers.get(name) ?? "";
  if (/^\d{1,9}$/.test(value)) return Number(value);
  throw new CitedApiError(`The app's server sent a PDF without a valid ${name} header`, {
    status: response.status,
    requestId: response.headers.get("X-Request-ID"),
  });
}
