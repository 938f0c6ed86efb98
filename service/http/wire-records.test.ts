import { describe, expect, it } from "vitest";
import { documentSchema, keyCreatedSchema } from "../../sdk/admin/schemas.ts";
import type { StoredDocument } from "../store/documents.ts";
import { documentRecord, keyCreated, sourceRecord } from "./wire-records.ts";

const queued: StoredDocument = {
  id: "doc_aaaaaaaaaaaaaaaaaaaa",
  assistantId: "asst_aaaaaaaaaaaaaaaaaaaa",
  datasourceId: "ds_aaaaaaaaaaaaaaaaaaaa",
  datasourceName: "manuals",
  fileName: "guide.pdf",
  status: "queued",
  error: null,
  warnings: [],
  bytes: 1024,
  sha256: "ab".repeat(32),
  title: null,
  pages: null,
  pagesDone: null,
  passages: null,
  passagesEmbedded: null,
  readAlone: true,
  loneCrashes: 1,
  createdAt: new Date("2026-01-02T03:04:05.678Z"),
  updatedAt: new Date("2026-01-02T03:04:06.000Z"),
};

describe("a document on the wire", () => {
  it("leaves out what is not known yet and the service's bookkeeping, in the API's field order", () => {
    const record = documentRecord(queued);
    expect(Object.keys(record)).toEqual([
      "id",
      "file_name",
      "id_datasource",
      "datasource",
      "status",
      "bytes",
      "sha256",
      "created_at",
      "updated_at",
    ]);
    expect(documentSchema.strict().parse(record)).toEqual(record);
    expect(record.created_at).toBe("2026-01-02T03:04:05.678Z");
  });

  it("tells a ready document's pages, passages and warnings", () => {
    const record = documentRecord({
      ...queued,
      status: "ready",
      warnings: ["page 3 has no text"],
      title: "Guide",
      pages: 12,
      pagesDone: 12,
      passages: 40,
      passagesEmbedded: 40,
    });
    expect(record).toMatchObject({
      warnings: ["page 3 has no text"],
      pages: 12,
      pages_done: 12,
      passages: 40,
    });
    expect(record.passages_embedded).toBe(40);
  });

  it("is listed as a source under its title, else its file name", () => {
    expect(sourceRecord(queued)).toEqual({
      id_document: queued.id,
      id_datasource: queued.datasourceId,
      title: "guide.pdf",
      file_name: "guide.pdf",
      pages: null,
    });
    expect(sourceRecord({ ...queued, title: "Guide", pages: 3 })).toMatchObject({ title: "Guide", pages: 3 });
  });
});

describe("a new key on the wire", () => {
  it("carries the key once, with its times as ISO strings or null", () => {
    const record = keyCreated({
      id: "key_aaaaaaaaaaaaaaaaaaaa",
      assistantId: "asst_aaaaaaaaaaaaaaaaaaaa",
      name: null,
      scopes: ["ask"],
      prefix: "cka_live_aaaaaa",
      createdAt: new Date("2026-01-02T03:04:05.000Z"),
      revokedAt: null,
      lastUsedAt: null,
      expiresAt: new Date("2026-01-02T04:04:05.000Z"),
      key: "cka_live_secret",
    });
    expect(keyCreatedSchema.strict().parse(record)).toEqual(record);
    expect(record).toMatchObject({
      id_assistant: "asst_aaaaaaaaaaaaaaaaaaaa",
      expires_at: "2026-01-02T04:04:05.000Z",
    });
  });
});
