import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { blobGraceMs, sweepBlobs } from "./blob-sweeper.ts";
import { createBlobStore } from "./blobs.ts";
import { temporaryDirectory } from "./testing/temporary-directory.ts";

describe("sweeping stored files", () => {
  const root = temporaryDirectory("cka-blobs-");
  afterAll(() => rm(root, { recursive: true, force: true }));

  it("removes files and cut-off uploads older than the grace period that no document refers to", async () => {
    const blobs = createBlobStore(root);
    const store = (text: string) => blobs.write(Readable.from([Buffer.from(text)]), 1000);
    const kept = await store("a file a document refers to");
    const orphan = await store("a file of a deleted document");
    const staging = join(root, "tmp", "upload_cut_off_by_a_crash");
    await writeFile(staging, "half an upload");

    const now = Date.now();
    const sweep = (at: number) => sweepBlobs({ blobs, fileHashes: async () => new Set([kept.sha256]) }, at);
    expect(await sweep(now)).toEqual({ files: 0, bytes: 0 });
    expect(await sweep(now + blobGraceMs + 1000)).toEqual({ files: 2, bytes: orphan.bytes + 14 });
    expect((await blobs.files()).map((file) => file.sha256)).toEqual([kept.sha256]);
    expect(await blobs.exists(orphan.sha256)).toBe(false);
  });
});
