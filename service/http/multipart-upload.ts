/** Streams a multipart upload's files into the blob store, so a 100 MB file never sits in memory. */

import { Readable, Transform } from "node:stream";
import busboy from "busboy";
import { HttpProblem } from "../../sdk/core/index.ts";
import { assertStorableText } from "../../sdk/core/json-body.ts";
import { BlobStorageError, type BlobStore, BlobTooLargeError, type StoredBlob } from "../blobs.ts";

export interface UploadedFile extends StoredBlob {
  fileName: string;
}

export interface Upload {
  files: UploadedFile[];
  fields: Record<string, string>;
}

/** Keeps the last path segment, drops control characters, and never returns an empty name. */
function safeFileName(raw: string): string {
  const lastSegment = raw.split(/[\\/]/).pop() ?? "";
  const cleaned = lastSegment
    .replace(/\p{Cc}|\p{Cf}/gu, "")
    .replace(/^\.+/, "")
    .trim()
    .slice(0, 255);
  return cleaned || "unnamed";
}

const isHeaderByte = (byte: number) =>
  byte === 0x09 || byte === 0x0a || byte === 0x0d || (byte >= 0x20 && byte !== 0x7f);

/**
 * Browsers send a file name's control characters as they are (only CR, LF and `"` are escaped), and busboy
 * rejects such a part header, and with it the whole upload; this drops them from part headers only.
 */
function dropHeaderControls(boundary: string): Transform {
  const delimiter = Buffer.from(`--${boundary}`);
  const headersEnd = Buffer.from("\r\n\r\n");
  let pending = Buffer.alloc(0);
  let inHeaders = false;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      let data = pending.length > 0 ? Buffer.concat([pending, chunk]) : chunk;
      for (;;) {
        const marker = inHeaders ? headersEnd : delimiter;
        const found = data.indexOf(marker);
        // A marker may be cut by the chunk's end: its possible start waits for the next chunk.
        const upTo = found === -1 ? Math.max(0, data.length - marker.length + 1) : found + marker.length;
        const part = data.subarray(0, upTo);
        this.push(inHeaders ? part.filter(isHeaderByte) : part);
        data = data.subarray(upTo);
        if (found === -1) break;
        inHeaders = !inHeaders;
      }
      pending = Buffer.from(data);
      done();
    },
    flush(done) {
      done(null, inHeaders ? pending.filter(isHeaderByte) : pending);
    },
  });
}

export async function readUpload(request: Request, blobs: BlobStore, maxFileBytes: number): Promise<Upload> {
  const contentType = request.headers.get("Content-Type") ?? "";
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  if (!/^multipart\/form-data/i.test(contentType) || !boundary || !request.body) {
    throw new HttpProblem(
      400,
      "invalid_request",
      "Upload files as multipart/form-data (with its boundary) in the field `files`.",
    );
  }
  const parser = busboy({
    headers: { "content-type": contentType },
    limits: { fields: 20, fieldSize: 4096 },
    // Browsers and fetch's FormData send a file name's UTF-8 bytes as they are; busboy would read them as latin1.
    defParamCharset: "utf8",
  });
  const writes: Array<Promise<UploadedFile>> = [];
  const fields: Record<string, string> = {};
  const parsed = new Promise<void>((resolve, reject) => {
    parser.on("file", (field, stream, info) => {
      if (field !== "files" && field !== "file") {
        stream.resume();
        return;
      }
      const fileName = safeFileName(info.filename ?? "");
      const write = blobs.write(stream, maxFileBytes).then((blob) => ({ ...blob, fileName }));
      // Stop reading the request at once when one file is too large; the other writes are abandoned.
      write.catch((error: unknown) => reject(error));
      writes.push(write);
    });
    parser.on("field", (name, value) => {
      fields[name] = value;
    });
    parser.on("error", reject);
    parser.on("close", resolve);
  });
  const body = Readable.fromWeb(request.body as import("node:stream/web").ReadableStream<Uint8Array>);
  body.pipe(dropHeaderControls(boundary[1] ?? boundary[2]!)).pipe(parser);
  try {
    await parsed;
    const files = await Promise.all(writes);
    assertStorableText(fields);
    if (files.length === 0)
      throw new HttpProblem(422, "invalid_input", "Attach at least one file in the field `files`.");
    return { files, fields };
  } catch (error) {
    await Promise.allSettled(writes);
    if (error instanceof BlobTooLargeError) {
      throw new HttpProblem(
        413,
        "payload_too_large",
        `Each file may be at most ${maxFileBytes} bytes; no document was added.`,
      );
    }
    if (error instanceof BlobStorageError) {
      throw new HttpProblem(
        503,
        "unavailable",
        "The service could not store the file (its disk is full or failing); no document was added. Try again later.",
        { headers: { "Retry-After": "60" } },
      );
    }
    if (error instanceof HttpProblem) throw error;
    throw new HttpProblem(
      400,
      "invalid_request",
      `The multipart body could not be read: ${(error as Error).message}`,
    );
  }
}
