/** `cka ingest`: uploads files and folders, shows each file's progress, and sums up at the end. */
import { readdirSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import type { AdminClient } from "../../sdk/admin/index.ts";
import type { DocumentRecord } from "../../sdk/admin/schemas.ts";
import { CitedApiError } from "../../sdk/core/index.ts";
import { type DocumentListing, uploadFile, watchListing } from "./admin-client.ts";
import { createProgressView } from "./progress-view.ts";

export interface IngestOutcome {
  ready: number;
  failed: number;
  pages: number;
  seconds: number;
}

/** Files under the given paths, folders walked in name order; hidden entries skipped. */
export function collectFiles(paths: string[]): string[] {
  const files: string[] = [];
  const visit = (path: string) => {
    const stats = statSync(path);
    if (stats.isFile()) files.push(path);
    else if (stats.isDirectory()) {
      for (const entry of readdirSync(path).sort()) if (!entry.startsWith(".")) visit(join(path, entry));
    }
  };
  for (const path of paths) visit(path);
  return files;
}

/** How long the service may hold each request for a change; progress comes sooner, as it is made. */
const watchSeconds = 2;

const finished = (document: DocumentRecord) => document.status === "ready" || document.status === "failed";

export async function ingestFiles(
  client: AdminClient,
  options: {
    assistant: string;
    datasource?: string;
    paths: string[];
    out: NodeJS.WriteStream;
  },
): Promise<IngestOutcome> {
  const started = performance.now();
  const files = collectFiles(options.paths);
  if (files.length === 0) throw new Error("No files found under the given paths.");
  const view = createProgressView(
    options.out,
    files.map((file) => basename(file)),
  );
  const documentOf = new Map<number, string>();
  const results = new Map<number, DocumentRecord | { status: "failed"; error: string }>();
  const { max_upload_bytes: maxUploadBytes } = await client.limits();

  for (const [position, file] of files.entries()) {
    const bytes = statSync(file).size;
    if (bytes > maxUploadBytes) {
      // Not sent: the service would refuse it after reading up to its limit, and the upload costs the time anyway.
      const refused = {
        status: "failed" as const,
        error: `refused unsent: ${bytes} bytes, and the service takes at most ${maxUploadBytes} bytes per file`,
      };
      results.set(position, refused);
      view.update(position, refused);
      continue;
    }
    try {
      const [document] = await uploadFile(client, options.assistant, file, options.datasource);
      if (!document) throw new Error("The service accepted the upload but returned no document.");
      documentOf.set(position, document.id);
      results.set(position, document);
      view.update(position, document);
    } catch (error) {
      // A refusal of this file (unreadable, too large) is its failure; any other ends the command.
      if (!CitedApiError.isInstance(error) || error.status === 401 || error.status === 404) throw error;
      const failure = { status: "failed" as const, error: error.problem?.detail ?? error.message };
      results.set(position, failure);
      view.update(position, failure);
    }
  }

  let listing: DocumentListing = { documents: [], etag: null };
  while ([...results.values()].some((result) => !finished(result as DocumentRecord))) {
    listing = await watchListing(client, options.assistant, listing, watchSeconds);
    const byId = new Map(listing.documents.map((document) => [document.id, document]));
    for (const [position, id] of documentOf) {
      const document = byId.get(id);
      if (!document) {
        results.set(position, {
          status: "failed",
          error: "The document was deleted while it was being read.",
        });
        continue;
      }
      results.set(position, document);
      view.update(position, document);
    }
  }

  const all = [...results.values()];
  const outcome: IngestOutcome = {
    ready: all.filter((result) => result.status === "ready").length,
    failed: all.filter((result) => result.status === "failed").length,
    pages: all.reduce((sum, result) => sum + ("pages" in result ? (result.pages ?? 0) : 0), 0),
    seconds: (performance.now() - started) / 1000,
  };
  view.finish(outcome);
  return outcome;
}
