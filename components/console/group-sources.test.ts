import { describe, expect, it } from "vitest";
import type { DocumentRecord } from "@/sdk/admin/schemas.ts";
import { groupSources } from "./group-sources.ts";
import type { UploadRow } from "./source-row.tsx";

const document = (overrides: Partial<DocumentRecord>): DocumentRecord => ({
  id: "doc_1",
  file_name: "manual.pdf",
  id_datasource: "ds_manuals",
  datasource: "manuals",
  status: "queued",
  bytes: 2048,
  sha256: "0".repeat(64),
  created_at: "2026-11-01T09:00:00.000Z",
  updated_at: "2026-11-01T09:00:00.000Z",
  ...overrides,
});

const upload = (overrides: Partial<UploadRow>): UploadRow => ({
  key: "upload-1",
  fileName: "manual.pdf",
  bytes: 2048,
  datasource: "manuals",
  phase: "uploading",
  sentBytes: 0,
  error: null,
  ...overrides,
});

const shape = (groups: ReturnType<typeof groupSources>) =>
  groups.map((group) => ({
    name: group.name,
    id: group.id,
    documents: group.documents.map((entry) => entry.file_name),
    uploads: group.uploads.map((entry) => entry.fileName),
  }));

describe("groupSources", () => {
  it("keeps the service's datasources in order, empty ones too, then those only an upload names", () => {
    const groups = groupSources(
      [
        { id: "ds_manuals", name: "manuals", documents: 1 },
        { id: "ds_old", name: "old", documents: 0 },
      ],
      [document({})],
      [upload({ key: "upload-2", fileName: "notes.md", datasource: "fresh" })],
    );
    expect(shape(groups)).toEqual([
      { name: "manuals", id: "ds_manuals", documents: ["manual.pdf"], uploads: [] },
      { name: "old", id: "ds_old", documents: [], uploads: [] },
      { name: "fresh", id: null, documents: [], uploads: ["notes.md"] },
    ]);
  });

  it("shows a fully sent file once, as its document, when the listing has it before the upload's answer", () => {
    const sent = upload({ sentBytes: 2048 });
    expect(shape(groupSources([], [document({})], [sent]))[0]?.uploads).toEqual([]);
    const halfway = upload({ sentBytes: 1024 });
    expect(shape(groupSources([], [document({})], [halfway]))[0]?.uploads).toEqual(["manual.pdf"]);
    const elsewhere = upload({ sentBytes: 2048, datasource: "drafts" });
    expect(shape(groupSources([], [document({})], [elsewhere]))).toEqual([
      { name: "manuals", id: "ds_manuals", documents: ["manual.pdf"], uploads: [] },
      { name: "drafts", id: null, documents: [], uploads: ["manual.pdf"] },
    ]);
  });
});
