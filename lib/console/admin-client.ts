/**
 * The app's server-side client of the service's sharing area (`/admin/v1`): it holds the admin token,
 * validates every answer with sdk/core's schemas, and turns a failure into the SDK's typed error,
 * which keeps the problem details and the request id a person can quote.
 */
import { adminBasePath } from "../../sdk/core/index.ts";
import "server-only";
import type { z } from "zod";
import {
  ApiConnectionError,
  type Assistant,
  apiErrorFrom,
  assistantListSchema,
  assistantSchema,
  type DatasourceRecord,
  type DocumentRecord,
  datasourceListSchema,
  documentListSchema,
  type KeyCreated,
  type KeyRecord,
  keyCreatedSchema,
  keyListSchema,
  type Limits,
  limitsSchema,
  type Scope,
  type ServiceStatus,
  type Share,
  serviceStatusSchema,
  shareSchema,
} from "@/sdk/core/index.ts";
import { consoleSettings } from "./env.ts";

/** A documents listing as the service's long-poll gives it: changed, or the same as the caller's. */
export type DocumentsWatch =
  | { changed: true; documents: DocumentRecord[]; etag: string | null }
  | { changed: false; etag: string | null };

export interface AdminRequestInit {
  method?: string;
  body?: BodyInit | null;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** How long the service may take to answer; null: no limit (an upload takes as long as the file). */
  timeoutMs?: number | null;
}

/** What a long-poll may take beyond the wait it asked for before the service counts as not answering. */
const longPollMarginMs = 10_000;

export function createConsoleAdminClient(
  adminUrl: string,
  adminToken: string,
  { timeoutMs: defaultTimeoutMs }: { timeoutMs: number } = { timeoutMs: 15_000 },
) {
  /** The service's response, or the typed error of a failure (a 304 is not one: the caller asked for it). */
  async function send(path: string, init: AdminRequestInit = {}): Promise<Response> {
    const timeoutMs = init.timeoutMs === undefined ? defaultTimeoutMs : init.timeoutMs;
    const signals = [init.signal, timeoutMs === null ? undefined : AbortSignal.timeout(timeoutMs)].filter(
      (signal) => signal !== undefined,
    );
    let response: Response;
    try {
      response = await fetch(`${adminUrl}${adminBasePath}${path}`, {
        method: init.method ?? "GET",
        headers: { Authorization: `Bearer ${adminToken}`, ...init.headers },
        cache: "no-store",
        ...(init.body ? { body: init.body, duplex: "half" } : {}),
        ...(signals.length > 0 ? { signal: AbortSignal.any(signals) } : {}),
      });
    } catch (error) {
      if (init.signal?.aborted) throw error;
      throw new ApiConnectionError("The service's sharing area cannot be reached or did not answer in time", {
        cause: error,
      });
    }
    if (!response.ok && response.status !== 304) {
      throw apiErrorFrom(response.status, await response.text(), response.headers);
    }
    return response;
  }

  async function call<Schema extends z.ZodType>(
    schema: Schema,
    path: string,
    init: AdminRequestInit = {},
  ): Promise<z.infer<Schema>> {
    return schema.parse(await (await send(path, init)).json());
  }

  const json = (value: unknown): AdminRequestInit => ({
    body: JSON.stringify(value),
    headers: { "Content-Type": "application/json" },
  });
  const path = (...segments: string[]) => segments.map(encodeURIComponent).join("/");

  const listAssistants = async (): Promise<Assistant[]> =>
    (await call(assistantListSchema, "/assistants")).assistants;

  return {
    listAssistants,
    /** The assistant, or null when the service has none by that id (the sharing area lists, it has no GET of one). */
    async findAssistant(id: string): Promise<Assistant | null> {
      return (await listAssistants()).find((assistant) => assistant.id === id) ?? null;
    },
    createAssistant: (name: string): Promise<Assistant> =>
      call(assistantSchema, "/assistants", { method: "POST", ...json({ name }) }),
    renameAssistant: (id: string, name: string): Promise<Assistant> =>
      call(assistantSchema, `/assistants/${path(id)}`, { method: "PATCH", ...json({ name }) }),
    async deleteAssistant(id: string): Promise<void> {
      await send(`/assistants/${path(id)}`, { method: "DELETE" });
    },

    listDocuments: async (assistantId: string): Promise<DocumentRecord[]> =>
      (await call(documentListSchema, `/assistants/${path(assistantId)}/documents`)).documents,
    /**
     * The listing once it differs from the one tagged `etag`: the service holds the request until a
     * document changes (progress included) or `waitSeconds` pass.
     */
    async watchDocuments(
      assistantId: string,
      options: { etag: string | null; waitSeconds: number; signal: AbortSignal },
    ): Promise<DocumentsWatch> {
      const response = await send(`/assistants/${path(assistantId)}/documents`, {
        headers: {
          ...(options.etag ? { "If-None-Match": options.etag } : {}),
          Prefer: `wait=${options.waitSeconds}`,
        },
        signal: options.signal,
        timeoutMs: options.waitSeconds * 1000 + longPollMarginMs,
      });
      const etag = response.headers.get("ETag");
      if (response.status === 304) return { changed: false, etag };
      return { changed: true, documents: documentListSchema.parse(await response.json()).documents, etag };
    },
    /**
     * Passes a multipart upload on as it arrives: the body is a stream and is never read here, so a
     * large file does not sit in the app's memory.
     */
    uploadDocuments: async (
      assistantId: string,
      body: ReadableStream<Uint8Array>,
      contentType: string,
      signal: AbortSignal,
    ): Promise<DocumentRecord[]> =>
      (
        await call(documentListSchema, `/assistants/${path(assistantId)}/documents`, {
          method: "POST",
          body,
          headers: { "Content-Type": contentType },
          signal,
          timeoutMs: null,
        })
      ).documents,
    async deleteDocument(assistantId: string, documentId: string): Promise<void> {
      await send(`/assistants/${path(assistantId)}/documents/${path(documentId)}`, { method: "DELETE" });
    },
    listDatasources: async (assistantId: string): Promise<DatasourceRecord[]> =>
      (await call(datasourceListSchema, `/assistants/${path(assistantId)}/datasources`)).datasources,

    listKeys: async (assistantId: string): Promise<KeyRecord[]> =>
      (await call(keyListSchema, `/assistants/${path(assistantId)}/keys`)).keys,
    /** `expiresInSeconds`: the service refuses the key from then on; without it, never. */
    createKey: (
      assistantId: string,
      scopes: Scope[],
      name: string | null,
      expiresInSeconds?: number,
    ): Promise<KeyCreated> =>
      call(keyCreatedSchema, `/assistants/${path(assistantId)}/keys`, {
        method: "POST",
        ...json({
          scopes,
          ...(name ? { name } : {}),
          ...(expiresInSeconds === undefined ? {} : { expires_in_seconds: expiresInSeconds }),
        }),
      }),
    async revokeKey(keyId: string): Promise<void> {
      await send(`/keys/${path(keyId)}`, { method: "DELETE" });
    },

    share: (assistantId: string): Promise<Share> =>
      call(shareSchema, `/assistants/${path(assistantId)}/share`),
    limits: (): Promise<Limits> => call(limitsSchema, "/limits"),
    status: (): Promise<ServiceStatus> => call(serviceStatusSchema, "/status"),
  };
}

export type ConsoleAdminClient = ReturnType<typeof createConsoleAdminClient>;

let client: ConsoleAdminClient | undefined;

/** The admin client of this process; only called after the operator check, which needs the settings. */
export function consoleAdminClient(): ConsoleAdminClient {
  if (client) return client;
  const settings = consoleSettings();
  if (settings === null) throw new Error("The console has no settings (CITED_ADMIN_URL, CITED_ADMIN_TOKEN).");
  client = createConsoleAdminClient(settings.adminUrl, settings.adminToken);
  return client;
}
