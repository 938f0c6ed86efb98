/** Helpers for cross-process tests of the sharing area: raw uploads, waiting for ingestion, rag calls. */

import type { AdminClient } from "../../sdk/admin/index.ts";
import type { DocumentRecord } from "../../sdk/admin/schemas.ts";
import { adminBasePath, publicPaths } from "../../sdk/core/service-paths.ts";
import type { RetrievalResult } from "../../sdk/core/wire.ts";
import { type DocumentListing, watchListing } from "../cli/admin-client.ts";

/** Passed to spawned services as CKA_ADMIN_TOKEN, so tests need not read the data folder. */
export const testAdminToken = "test-admin-token-0123456789abcdef";

export interface UploadFile {
  name: string;
  bytes: Uint8Array;
}

/** Posts files as a browser would (multipart field `files`), returning the raw response. */
export function uploadFiles(
  url: string,
  assistantId: string,
  files: readonly UploadFile[],
  options: { datasource?: string; token?: string | null; send?: typeof fetch } = {},
): Promise<Response> {
  const form = new FormData();
  for (const file of files) form.append("files", new Blob([new Uint8Array(file.bytes)]), file.name);
  if (options.datasource) form.append("datasource", options.datasource);
  const token = options.token === undefined ? testAdminToken : options.token;
  return (options.send ?? fetch)(`${url}${adminBasePath}/assistants/${assistantId}/documents`, {
    method: "POST",
    headers: token === null ? {} : { Authorization: `Bearer ${token}` },
    body: form,
  });
}

export const settled = (document: DocumentRecord) =>
  document.status === "ready" || document.status === "failed";

/** Watches the assistant's documents until `done` holds (by default: every document ready or failed). */
export async function waitForDocuments(
  client: AdminClient,
  assistantId: string,
  options: { done?: (documents: DocumentRecord[]) => boolean; timeoutMs?: number } = {},
): Promise<DocumentRecord[]> {
  const done = options.done ?? ((documents) => documents.every(settled));
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  let listing: DocumentListing = { documents: [], etag: null };
  for (;;) {
    listing = await watchListing(client, assistantId, listing, 1);
    if (done(listing.documents)) return listing.documents;
    if (Date.now() > deadline) {
      const states = listing.documents
        .map((document) => `${document.file_name}: ${document.status}`)
        .join(", ");
      throw new Error(`documents did not settle in time: ${states}`);
    }
  }
}

/** Calls the public rag endpoint with an API key. */
export async function rag(
  url: string,
  key: string,
  assistantId: string,
  body: { query: string; max_results?: number; datasource_ids?: string[] },
  send: typeof fetch = fetch,
): Promise<{ status: number; results: RetrievalResult[] }> {
  const response = await send(`${url}${publicPaths.rag(assistantId)}`, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${key}`,
      "X-App-Code": "selfserve",
      "Content-Type": "application/json",
    },
    body: JSON.stringify(body),
  });
  const payload = (await response.json()) as { results?: RetrievalResult[] };
  return { status: response.status, results: payload.results ?? [] };
}
