/**
 * The console's browser side of the app's own console routes (`/console/api/…`); the service and
 * its admin token stay on the server. Failures become the SDK's typed errors with their request id.
 */
import type { z } from "zod";
import {
  type Assistant,
  assistantSchema,
  type DocumentRecord,
  documentListSchema,
  type KeyCreated,
  keyCreatedSchema,
} from "@/sdk/admin/schemas.ts";
import { fetchChecked } from "@/sdk/core/index.ts";
import type { Scope } from "@/sdk/core/wire.ts";

export const consoleApiPath = "/console/api";

function send(path: string, init: RequestInit = {}): Promise<Response> {
  return fetchChecked(
    (url, request) => fetch(url, request),
    `${consoleApiPath}${path}`,
    { cache: "no-store", ...init },
    { unreachable: "The app's server cannot be reached", callerSignal: init.signal },
  );
}

async function call<Schema extends z.ZodType>(
  schema: Schema,
  path: string,
  init: RequestInit = {},
): Promise<z.infer<Schema>> {
  return schema.parse(await (await send(path, init)).json());
}

const json = (method: string, value: unknown): RequestInit => ({
  method,
  body: JSON.stringify(value),
  headers: { "Content-Type": "application/json" },
});

const segment = encodeURIComponent;

export const consoleApi = {
  createAssistant: (name: string): Promise<Assistant> =>
    call(assistantSchema, "/assistants", json("POST", { name })),
  renameAssistant: (id: string, name: string): Promise<Assistant> =>
    call(assistantSchema, `/assistants/${segment(id)}`, json("PATCH", { name })),
  async deleteAssistant(id: string): Promise<void> {
    await send(`/assistants/${segment(id)}`, { method: "DELETE" });
  },
  /**
   * The documents once they differ from the listing tagged `etag`: the app holds the request while
   * the service does (up to 25 s), so each change arrives as it happens, with no timer.
   */
  async watchDocuments(
    assistantId: string,
    etag: string | null,
    signal: AbortSignal,
    waitSeconds = 25,
  ): Promise<{ documents: DocumentRecord[] | null; etag: string | null }> {
    const response = await send(`/assistants/${segment(assistantId)}/documents`, {
      headers: { ...(etag ? { "If-None-Match": etag } : {}), Prefer: `wait=${waitSeconds}` },
      signal,
    });
    const next = response.headers.get("ETag");
    if (response.status === 304) return { documents: null, etag: next ?? etag };
    return { documents: documentListSchema.parse(await response.json()).documents, etag: next };
  },
  async deleteDocument(assistantId: string, documentId: string): Promise<void> {
    await send(`/assistants/${segment(assistantId)}/documents/${segment(documentId)}`, { method: "DELETE" });
  },
  createKey: (assistantId: string, scopes: Scope[], name: string): Promise<KeyCreated> =>
    call(keyCreatedSchema, `/assistants/${segment(assistantId)}/keys`, json("POST", { scopes, name })),
  async revokeKey(keyId: string): Promise<void> {
    await send(`/keys/${segment(keyId)}`, { method: "DELETE" });
  },
};
