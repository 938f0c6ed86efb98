import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createBlobStore } from "../blobs.ts";
import { readUpload } from "./multipart-upload.ts";

const root = mkdtempSync(join(tmpdir(), "cka-upload-test-"));
const blobs = createBlobStore(root);
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The multipart body a browser sends for these files, replayed in chunks of the given sizes. */
async function chunkedRequest(files: Array<{ name: string; bytes: Uint8Array }>, sizes: () => number) {
  const form = new FormData();
  for (const file of files) form.append("files", new Blob([new Uint8Array(file.bytes)]), file.name);
  form.append("datasource", "manuals");
  const encoded = new Request("http://test/", { method: "POST", body: form });
  const body = new Uint8Array(await encoded.arrayBuffer());
  let offset = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= body.length) return controller.close();
      const size = sizes();
      controller.enqueue(body.slice(offset, offset + size));
      offset += size;
    },
  });
  return new Request("http://test/", {
    method: "POST",
    headers: { "Content-Type": encoded.headers.get("Content-Type")! },
    body: stream,
    duplex: "half",
  } as RequestInit);
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

describe("readUpload", () => {
  // Binary content full of control bytes, CRLFs and dashes: none of it may be touched.
  const content = Buffer.concat([randomBytes(20_000), Buffer.from("\r\n\r\n--\x07\r\n"), randomBytes(5_000)]);
  const files = [
    { name: "../../etc/sum\u0007mary\u001b.pdf", bytes: content },
    { name: "C:\\Users\\me\\re\tport.md", bytes: new TextEncoder().encode("# Report\n\nAll good.\n") },
  ];

  for (const [label, sizes] of [
    ["one byte at a time", () => 1],
    ["in odd-sized chunks", () => 1 + Math.floor(Math.random() * 97)],
    ["in large chunks", () => 64 * 1024],
  ] as const) {
    it(`keeps every byte of the files and cleans their names when the body arrives ${label}`, async () => {
      const upload = await readUpload(await chunkedRequest(files, sizes), blobs, 1_000_000);
      expect(upload.fields).toEqual({ datasource: "manuals" });
      expect(upload.files.map((file) => [file.fileName, file.sha256, file.bytes])).toEqual([
        ["summary.pdf", sha256(content), content.byteLength],
        ["report.md", sha256(files[1]!.bytes), files[1]!.bytes.byteLength],
      ]);
    });
  }
});
