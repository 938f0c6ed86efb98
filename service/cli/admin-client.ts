/**
 * `cka`'s side of the sharing area: where the service is and its admin token, and what a command line needs
 * beside sdk/admin's client (a file uploaded by its path, a listing watched until it changes).
 */
import { openAsBlob } from "node:fs";
import { basename } from "node:path";
import { type AdminClient, createAdminClient } from "../../sdk/admin/index.ts";
import type { DocumentRecord } from "../../sdk/admin/schemas.ts";
import { adminClientSettings } from "../config.ts";
import { readSecrets } from "../secrets.ts";

export interface AdminConnection {
  url: string;
  adminToken: string;
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
