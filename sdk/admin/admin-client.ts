/**
 * The client of the service's sharing area (`/admin/v1`), for a server that holds the admin token: `cka`, a
 * host's console, scripts and tests. Every answer is validated with sdk/core's schemas, and every failure is
 * the SDK's typed error, which keeps the problem details and the request id a person can quote.
 */
import type { z } from "zod";
import { fetchChecked } from "../core/index.ts";
import { adminBasePath } from "../core/service-paths.ts";
import type { Scope } from "../core/wire.ts";
import {
  type Assistant,
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
  type ServiceStatus,
  type Share,
  serviceStatusSchema,
  shareSchema,
} from "./schemas.ts";

export interface AdminClientOptions {
  /** The service's base URL; the sharing area is under `/admin/v1`. */
  baseUrl: string;
  adminToken: string;
  /** Default the global fetch (tests pass an in-process app's). */
  fetch?: typeof fetch;
  /** How long a call may take before it fails as not answering; default 15 s. Uploads and long polls set their own. */
  timeoutMs?: number;
}

/** A documents listing as the service's long poll gives it: changed, or the same as the caller's. */
export type DocumentsWatch =
  | { changed: true; documents: DocumentRecord[]; etag: string | null }
  | { changed: false; etag: string | null };

interface AdminRequestInit {
  method?: string;
  body?: BodyInit | null;
  headers?: Record<string, string>;
  signal?: AbortSignal | undefined;
  /** null: no limit (an upload takes as long as the file). */
  timeoutMs?: number | null;
}

/** What a long poll may take beyond the wait it asked for before the service counts as not answering. */
const longPollMarginMs = 10_000;

/**
 * @example
 * const admin = createAdminClient({ baseUrl: "http://127.0.0.1:8787", adminToken });
 * const assistant = await admin.createAssistant("Support");
 * const { key } = await admin.createKey(assistant.id, ["ask", "rag"], "website");
 */
export function createAdminClient(options: AdminClientOptions) {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const defaultTimeoutMs = options.timeoutMs ?? 15_000;
  const fetchService =
    options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));

  /** The service's response, or the typed error of a failure (a 304 is not one: the caller asked for it). */
  async function send(path: string, init: AdminRequestInit = {}): Promise<Response> {
    const timeoutMs = init.timeoutMs === undefined ? defaultTimeoutMs : init.timeoutMs;
    const signals = [init.signal, timeoutMs === null ? undefined : AbortSignal.timeout(timeoutMs)].filter(
      (signal) => signal !== undefined,
    );
    return fetchChecked(
      fetchService,
      `${baseUrl}${adminBasePath}${path}`,
      {
        method: init.method ?? "GET",
        headers: { Authorization: `Bearer ${options.adminToken}`, ...init.headers },
        cache: "no-store",
        ...(init.body ? { body: init.body, duplex: "half" } : {}),
        ...(signals.length > 0 ? { signal: AbortSignal.any(signals) } : {}),
      },
      {
        unreachable: `The service at ${baseUrl} cannot be reached or did not answer in time`,
        callerSignal: init.signal,
      },
    );
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
      watch: { etag: string | null; waitSeconds: number; signal?: AbortSignal },
    ): Promise<DocumentsWatch> {
      const response = await send(`/assistants/${path(assistantId)}/documents`, {
        headers: {
          ...(watch.etag ? { "If-None-Match": watch.etag } : {}),
          Prefer: `wait=${watch.waitSeconds}`,
        },
        signal: watch.signal,
        timeoutMs: watch.waitSeconds * 1000 + longPollMarginMs,
      });
      const etag = response.headers.get("ETag");
      if (response.status === 304) return { changed: false, etag };
      return { changed: true, documents: documentListSchema.parse(await response.json()).documents, etag };
    },
    /**
     * Uploads files: a `FormData` of `files` (and an optional `datasource`), or a multipart body passed on
     * as it arrives with its `contentType`, so a large file never sits in memory. No time limit: an upload
     * takes as long as the file.
     */
    uploadDocuments: async (
      assistantId: string,
      body: FormData | ReadableStream<Uint8Array>,
      upload: { contentType?: string; signal?: AbortSignal } = {},
    ): Promise<DocumentRecord[]> =>
      (
        await call(documentListSchema, `/assistants/${path(assistantId)}/documents`, {
          method: "POST",
          body,
          headers: upload.contentType ? { "Content-Type": upload.contentType } : {},
          signal: upload.signal,
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
      name?: string | null,
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

export type AdminClient = ReturnType<typeof createAdminClient>;
