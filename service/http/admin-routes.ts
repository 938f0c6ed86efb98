/** The sharing area (`/admin/v1`): assistants, documents and their ingestion state, keys, share settings. */
import { open } from "node:fs/promises";
import {
  assistantCreateSchema,
  assistantRenameSchema,
  type DocumentRecord,
  keyCreateSchema,
  limitsSchema,
  serviceStatusSchema,
  shareSchema,
} from "../../sdk/admin/schemas.ts";
import { HttpProblem, parseInput, readJsonBody } from "../../sdk/core/index.ts";
import { adminBasePath } from "../../sdk/core/service-paths.ts";
import type { BlobSweeper } from "../blob-sweeper.ts";
import type { BlobStore } from "../blobs.ts";
import type { EmbeddingRuntime } from "../embedding/embedding-runtime.ts";
import type { AssistantIndexes } from "../index/assistant-indexes.ts";
import type { IngestionRunner } from "../ingest/ingestion-runner.ts";
import { uploadProblem } from "../ingest/read-source.ts";
import type { Store } from "../store/store.ts";
import { requireAdminToken } from "./admin-auth.ts";
import type { ServiceHono } from "./app.ts";
import { entityTag, noneMatch, preferredWaitMs } from "./conditional-wait.ts";
import { readUpload } from "./multipart-upload.ts";
import { assistantRecord, datasourceRecord, documentRecord, keyCreated, keyRecord } from "./wire-records.ts";

export interface AdminDependencies {
  store: Store;
  blobs: BlobStore;
  /** Told of each deletion, so that files no document needs any more are removed. */
  blobSweeper: Pick<BlobSweeper, "soon">;
  indexes: AssistantIndexes;
  ingestion: IngestionRunner;
  adminToken: string;
  maxUploadBytes: number;
  baseUrl(): string;
  embedding: Pick<EmbeddingRuntime, "status">;
}

const jsonLimit = 64 * 1024;

async function fileHead(path: string): Promise<Uint8Array> {
  const handle = await open(path, "r");
  try {
    const buffer = new Uint8Array(4096);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

export function mountAdminRoutes(app: ServiceHono, dependencies: AdminDependencies): void {
  const { store } = dependencies;
  const admin = app.basePath(adminBasePath);
  admin.use("*", requireAdminToken(dependencies.adminToken));

  const assistantOr404 = async (id: string) => {
    const assistant = await store.assistants.get(id);
    if (!assistant) throw new HttpProblem(404, "not_found", `No assistant ${id}.`);
    return assistant;
  };

  admin.post("/assistants", async (context) => {
    const input = parseInput(
      assistantCreateSchema,
      await readJsonBody(context.req.raw, { maxBytes: jsonLimit }),
    );
    return context.json(assistantRecord(await store.assistants.create(input.name)), 201);
  });

  admin.get("/assistants", async (context) =>
    context.json({ assistants: (await store.assistants.list()).map(assistantRecord) }),
  );

  admin.patch("/assistants/:assistant", async (context) => {
    const id = context.req.param("assistant");
    const input = parseInput(
      assistantRenameSchema,
      await readJsonBody(context.req.raw, { maxBytes: jsonLimit }),
    );
    const renamed = await store.assistants.rename(id, input.name);
    if (!renamed) throw new HttpProblem(404, "not_found", `No assistant ${id}.`);
    return context.json(assistantRecord(renamed));
  });

  admin.delete("/assistants/:assistant", async (context) => {
    const id = context.req.param("assistant");
    if (!(await store.assistants.remove(id))) throw new HttpProblem(404, "not_found", `No assistant ${id}.`);
    dependencies.indexes.forget(id);
    // The store's removal told documentChanges, which wakes held listings of its documents (they answer 404).
    store.keys.forgetAll();
    dependencies.blobSweeper.soon();
    return context.body(null, 204);
  });

  admin.post("/assistants/:assistant/documents", async (context) => {
    const assistant = await assistantOr404(context.req.param("assistant"));
    const upload = await readUpload(context.req.raw, dependencies.blobs, dependencies.maxUploadBytes);
    const datasource = await store.assistants.datasource(
      assistant.id,
      upload.fields.datasource?.trim() || "default",
    );
    const documents: DocumentRecord[] = [];
    for (const file of upload.files) {
      const head = await fileHead(dependencies.blobs.pathOf(file.sha256));
      const failure = uploadProblem(file.fileName, head, file.bytes);
      const { document } = await store.documents.add({
        assistantId: assistant.id,
        datasourceId: datasource.id,
        fileName: file.fileName,
        sha256: file.sha256,
        bytes: file.bytes,
        ...(failure ? { failure } : {}),
      });
      documents.push(documentRecord(document));
    }
    dependencies.ingestion.notify();
    return context.json({ documents }, 202);
  });

  admin.get("/assistants/:assistant/documents", async (context) => {
    const assistantId = context.req.param("assistant");
    const known = context.req.header("If-None-Match");
    const deadline = Date.now() + preferredWaitMs(context.req.header("Prefer"));
    for (;;) {
      // Read before listing: a change made while the listing is read still wakes the wait below.
      const seen = store.documentChanges.version;
      // Again after each wait: the assistant may have been deleted meanwhile.
      const assistant = await assistantOr404(assistantId);
      const body = JSON.stringify({
        documents: (await store.documents.list(assistant.id)).map(documentRecord),
      });
      const tag = entityTag(body);
      if (noneMatch(known, tag)) {
        return context.body(body, 200, { "Content-Type": "application/json", ETag: tag });
      }
      const left = deadline - Date.now();
      if (left <= 0 || context.req.raw.signal.aborted) return context.body(null, 304, { ETag: tag });
      await store.documentChanges.after(seen, left, context.req.raw.signal);
    }
  });

  admin.delete("/assistants/:assistant/documents/:document", async (context) => {
    const assistant = await assistantOr404(context.req.param("assistant"));
    const documentId = context.req.param("document");
    if (!(await store.documents.remove(assistant.id, documentId))) {
      throw new HttpProblem(404, "not_found", `No document ${documentId} in assistant ${assistant.id}.`);
    }
    await dependencies.indexes.removeDocument(assistant.id, documentId);
    store.passages.forgetDocument(documentId);
    dependencies.blobSweeper.soon();
    return context.body(null, 204);
  });

  admin.get("/assistants/:assistant/datasources", async (context) => {
    const assistant = await assistantOr404(context.req.param("assistant"));
    return context.json({
      datasources: (await store.assistants.datasources(assistant.id)).map(datasourceRecord),
    });
  });

  admin.post("/assistants/:assistant/keys", async (context) => {
    const assistant = await assistantOr404(context.req.param("assistant"));
    const input = parseInput(keyCreateSchema, await readJsonBody(context.req.raw, { maxBytes: jsonLimit }));
    const created = await store.keys.create(
      assistant.id,
      input.scopes,
      input.name || null,
      input.expires_in_seconds ?? null,
    );
    return context.json(keyCreated(created), 201);
  });

  admin.get("/assistants/:assistant/keys", async (context) => {
    const assistant = await assistantOr404(context.req.param("assistant"));
    return context.json({ keys: (await store.keys.list(assistant.id)).map(keyRecord) });
  });

  admin.delete("/keys/:key", async (context) => {
    const id = context.req.param("key");
    if (!(await store.keys.revoke(id))) throw new HttpProblem(404, "not_found", `No key ${id}.`);
    return context.body(null, 204);
  });

  admin.get("/status", (context) => {
    const status = dependencies.embedding.status();
    return context.json(
      serviceStatusSchema.parse({
        search: status.state === "ready" ? "semantic" : status.state === "loading" ? "loading" : "lexical",
        ...(status.model ? { embedding_model: status.model } : {}),
        detail: status.detail,
      }),
    );
  });
  admin.get("/limits", (context) =>
    context.json(limitsSchema.parse({ max_upload_bytes: dependencies.maxUploadBytes })),
  );

  admin.get("/assistants/:assistant/share", async (context) => {
    const assistant = await assistantOr404(context.req.param("assistant"));
    return context.json(shareSchema.parse({ assistant: assistant.id, base_url: dependencies.baseUrl() }));
  });
}
