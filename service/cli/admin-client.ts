/** The `cka` side of the sharing area: typed calls to a running service's admin API. */
import { openAsBlob } from "node:fs";
import { basename } from "node:path";
import type { z } from "zod";
import {
  type Assistant,
  adminBasePath,
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
  problemDetailsSchema,
  type Scope,
  type ServiceStatus,
  type Share,
  serviceStatusSchema,
  shareSchema,
} from "../../sdk/core/index.ts";
import { adminClientSettings } from "../config.ts";
import { readSecrets } from "../secrets.ts";

export interface AdminConnection {
  url: string;
  adminToken: string;
  /** How requests are sent; default the global fetch (tests pass the in-process app's). */
  fetch?: typeof fetch;
}

/** Flags first, then the environment, then the token a local service keeps in its data folder. */
export function resolveConnection(
  flags: { url?: string; "admin-token"?: string; data?: string },
  environment: NodeJS.ProcessEnv = process.env,
): AdminConnection {
  const settings = adminClientSettings(environment);
  const url = (flags.url ?? settings.CKA_URL).replace(/\/+$/, "");
  const adminToken =
    flags["admin-token"] ??
    settings.CKA_ADMIN_TOKEN ??
    readSecrets(flags.data ?? settings.CKA_DATA)?.adminToken;
  if (!adminToken) throw new Error("No admin token: pass --admin-token or set CKA_ADMIN_TOKEN.");
  return { url, adminToken };
}

/** A listing of documents with the validator the service gave it (`null` before the first one). */
export interface DocumentListing {
  documents: DocumentRecord[];
  etag: string | null;
}

const pollWithoutEtagMs = 250;

export class AdminRequestError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.name = "AdminRequestError";
    this.status = status;
  }
}

export function createAdminClient(connection: AdminConnection) {
  async function send(
    method: string,
    path: string,
    body?: BodyInit,
    contentType?: string,
    headers: Record<string, string> = {},
  ): Promise<Response> {
    let response: Response;
    try {
      response = await (connection.fetch ?? fetch)(`${connection.url}${adminBasePath}${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${connection.adminToken}`,
          ...(contentType ? { "Content-Type": contentType } : {}),
          ...headers,
        },
        ...(body ? { body } : {}),
      });
    } catch (error) {
      throw new Error(
        `Cannot reach the service at ${connection.url} (${(error as Error).message}); is \`cka serve\` running?`,
      );
    }
    if (!response.ok && !(response.status === 304 && "If-None-Match" in headers)) {
      const problem = problemDetailsSchema.safeParse(await response.json().catch(() => null));
      throw new AdminRequestError(
        response.status,
        problem.success ? problem.data.detail : `HTTP ${response.status}`,
      );
    }
    return response;
  }
  async function call<Schema extends z.ZodType>(
    method: string,
    path: string,
    schema: Schema,
    body?: BodyInit,
    contentType?: string,
  ): Promise<z.infer<Schema>> {
    return schema.parse(await (await send(method, path, body, contentType)).json());
  }
  const json = (value: unknown) => JSON.stringify(value);

  return {
    createAssistant: (name: string): Promise<Assistant> =>
      call("POST", "/assistants", assistantSchema, json({ name }), "application/json"),
    listAssistants: async (): Promise<Assistant[]> =>
      (await call("GET", "/assistants", assistantListSchema)).assistants,
    renameAssistant: (id: string, name: string): Promise<Assistant> =>
      call("PATCH", `/assistants/${id}`, assistantSchema, json({ name }), "application/json"),
    async deleteAssistant(id: string): Promise<void> {
      await send("DELETE", `/assistants/${id}`);
    },
    async upload(assistantId: string, path: string, datasource?: string): Promise<DocumentRecord[]> {
      const form = new FormData();
      form.append("files", await openAsBlob(path), basename(path));
      if (datasource) form.append("datasource", datasource);
      return (await call("POST", `/assistants/${assistantId}/documents`, documentListSchema, form)).documents;
    },
    listDocuments: async (assistantId: string): Promise<DocumentRecord[]> =>
      (await call("GET", `/assistants/${assistantId}/documents`, documentListSchema)).documents,
    /**
     * The documents once they differ from `previous`: the service holds the request until one changes
     * (progress included) or `waitSeconds` pass, and then `previous` comes back as it was.
     */
    async watchDocuments(
      assistantId: string,
      previous: DocumentListing,
      waitSeconds: number,
    ): Promise<DocumentListing> {
      const response = await send("GET", `/assistants/${assistantId}/documents`, undefined, undefined, {
        ...(previous.etag ? { "If-None-Match": previous.etag } : {}),
        Prefer: `wait=${waitSeconds}`,
      });
      if (response.status === 304) return previous;
      const { documents } = documentListSchema.parse(await response.json());
      const etag = response.headers.get("ETag");
      // A service without ETags answers at once, never holding the request: poll it at a gentle pace.
      if (etag === null) await new Promise((resolve) => setTimeout(resolve, pollWithoutEtagMs));
      return { documents, etag };
    },
    listDatasources: async (assistantId: string): Promise<DatasourceRecord[]> =>
      (await call("GET", `/assistants/${assistantId}/datasources`, datasourceListSchema)).datasources,
    createKey: (assistantId: string, scopes: Scope[], name?: string): Promise<KeyCreated> =>
      call(
        "POST",
        `/assistants/${assistantId}/keys`,
        keyCreatedSchema,
        json({ scopes, name }),
        "application/json",
      ),
    listKeys: async (assistantId: string): Promise<KeyRecord[]> =>
      (await call("GET", `/assistants/${assistantId}/keys`, keyListSchema)).keys,
    async revokeKey(id: string): Promise<void> {
      await send("DELETE", `/keys/${id}`);
    },
    share: (assistantId: string): Promise<Share> =>
      call("GET", `/assistants/${assistantId}/share`, shareSchema),
    limits: (): Promise<Limits> => call("GET", "/limits", limitsSchema),
    status: (): Promise<ServiceStatus> => call("GET", "/status", serviceStatusSchema),
  };
}

export type AdminClient = ReturnType<typeof createAdminClient>;
