/**
 * `cka`'s side of the sharing area: where the service is and its admin token, and what a command line needs
 * beside sdk/admin's client (a file uploaded by its path, a listing watched until it changes).
 */
import { openAsBlob } from "node:fs";
import { basename, resolve } from "node:path";
import { type AdminClient, createAdminClient } from "../../sdk/admin/index.ts";
import type { DocumentRecord } from "../../sdk/admin/schemas.ts";
import { adminClientSettings } from "../config.ts";
import { readSecrets } from "../secrets.ts";
import { noTokenMessage } from "./connection-help.ts";

/** Where the admin token came from, so that a refusal can say which one the service turned down. */
export type TokenSource = "--admin-token" | "CKA_ADMIN_TOKEN" | "data folder";

export interface AdminConnection {
  url: string;
  adminToken: string;
}

/** A connection as cka found it, with where it looked, for messages that say so. */
export interface ResolvedConnection extends AdminConnection {
  tokenSource: TokenSource;
  /** The data folder cka looked in for the token (absolute), whether or not the token came from it. */
  dataDir: string;
}

/** Flags first, then the environment, then the token a local service keeps in its data folder. */
export function resolveConnection(
  flags: { url?: string; "admin-token"?: string; data?: string },
  environment: NodeJS.ProcessEnv = process.env,
): ResolvedConnection {
  const settings = adminClientSettings(environment);
  const url = (flags.url ?? settings.CKA_URL).replace(/\/+$/, "");
  const dataDir = resolve(flags.data ?? settings.CKA_DATA);
  const given = flags["admin-token"] ?? settings.CKA_ADMIN_TOKEN;
  if (given !== undefined) {
    const tokenSource = flags["admin-token"] !== undefined ? "--admin-token" : "CKA_ADMIN_TOKEN";
    return { url, adminToken: given, tokenSource, dataDir };
  }
  const kept = readSecrets(dataDir)?.adminToken;
  if (kept === undefined) throw new Error(noTokenMessage(url, dataDir));
  return { url, adminToken: kept, tokenSource: "data folder", dataDir };
}

/** The sharing area's client for a resolved connection. */
export function adminClientFor(connection: AdminConnection): AdminClient {
  return createAdminClient({ baseUrl: connection.url, adminToken: connection.adminToken });
}

/** Uploads the file at `path` into the assistant (into `datasource`, named or by id, when given). */
export async function uploadFile(
  client: AdminClient,
  assistantId: string,
  path: string,
  datasource?: string,
): Promise<DocumentRecord[]> {
  const form = new FormData();
  form.append("files", await openAsBlob(path), basename(path));
  if (datasource) form.append("datasource", datasource);
  return client.uploadDocuments(assistantId, form);
}

/** A listing of documents with the validator the service gave it (`null` before the first one). */
export interface DocumentListing {
  documents: DocumentRecord[];
  etag: string | null;
}

const pollWithoutEtagMs = 250;

/**
 * The documents once they differ from `previous`: the service holds the request until one changes (progress
 * included) or `waitSeconds` pass, and then `previous` comes back as it was.
 */
export async function watchListing(
  client: AdminClient,
  assistantId: string,
  previous: DocumentListing,
  waitSeconds: number,
): Promise<DocumentListing> {
  const watched = await client.watchDocuments(assistantId, { etag: previous.etag, waitSeconds });
  if (!watched.changed) return previous;
  // A service without ETags answers at once, never holding the request: poll it at a gentle pace.
  if (watched.etag === null) await new Promise((resolve) => setTimeout(resolve, pollWithoutEtagMs));
  return { documents: watched.documents, etag: watched.etag };
}
