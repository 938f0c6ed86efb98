/**
 * Puts the demo corpus into the assistant: uploads what it lacks into each sample's datasource, then
 * watches the documents (long-polled listing) until every one is ready or failed, showing each file's state.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import type { AdminClient } from "../../sdk/admin/index.ts";
import type { DocumentRecord } from "../../sdk/admin/schemas.ts";
import { type DocumentListing, uploadFile, watchListing } from "../../service/cli/admin-client.ts";
import { createProgressView } from "../../service/cli/progress-view.ts";
import { matchSamples, type SampleFile } from "./demo-plan.ts";

/** How long the service may hold each listing request; every change comes back sooner. */
const watchSeconds = 10;

const finished = (document: DocumentRecord) => document.status === "ready" || document.status === "failed";

const describeSample = (sample: SampleFile) => `${basename(sample.path)} (${sample.datasource})`;

/** The demo documents, one per sample, in the order of `samples`, once none is still being read. */
export async function ingestSamples(
  client: AdminClient,
  assistantId: string,
  samples: SampleFile[],
  options: { out: NodeJS.WriteStream; log(line: string): void; timeoutMs: number },
): Promise<DocumentRecord[]> {
  const started = performance.now();
  const states = matchSamples(
    samples.map((sample) => ({
      sample,
      fileName: basename(sample.path),
      sha256: createHash("sha256").update(readFileSync(sample.path)).digest("hex"),
    })),
    await client.listDocuments(assistantId),
  );
  const reused = states.flatMap((state) =>
    state.document && finished(state.document) ? [state.document] : [],
  );
  if (reused.length === states.length) {
    options.log(`samples: all ${states.length} files already ingested`);
    return reused;
  }

  options.log("ingesting samples/sources/");
  const view = createProgressView(options.out, samples.map(describeSample));
  const documents: DocumentRecord[] = [];
  for (const state of states) {
    const document =
      state.document ??
      (await uploadFile(client, assistantId, state.sample.path, state.sample.datasource))[0];
    if (!document) throw new Error(`The service returned no document for ${state.sample.path}.`);
    view.update(documents.length, document);
    documents.push(document);
  }

  let listing: DocumentListing = { documents: [], etag: null };
  const deadline = Date.now() + options.timeoutMs;
  while (documents.some((document) => !finished(document))) {
    if (Date.now() > deadline) {
      options.log(`samples are still being read after ${options.timeoutMs / 1000} s; going on without them`);
      break;
    }
    listing = await watchListing(client, assistantId, listing, watchSeconds);
    const byId = new Map(listing.documents.map((document) => [document.id, document]));
    for (const [position, document] of documents.entries()) {
      const latest = byId.get(document.id) ?? {
        ...document,
        status: "failed" as const,
        error: "The document was deleted while it was being read.",
      };
      documents[position] = latest;
      view.update(position, latest);
    }
  }

  view.finish({
    ready: documents.filter((document) => document.status === "ready").length,
    failed: documents.filter((document) => document.status === "failed").length,
    pages: documents.reduce((sum, document) => sum + (document.pages ?? 0), 0),
    seconds: (performance.now() - started) / 1000,
  });
  return documents;
}
