/** Streams a multipart upload's files into the blob store, so a 100 MB file never sits in memory. */
import { Readable } from "node:stream";
import busboy from "busboy";
import { type BlobStore, BlobTooLargeError, type StoredBlob } from "../blobs.ts";
import { HttpProblem } from "./problem.ts";

export interface UploadedFile extends StoredBlob {
  fileName: string;
}

export interface Upload {
  files: UploadedFile[];
  fields: Record<string, string>;
}

/** Keeps the last path segment, drops control characters, and never returns an empty name. */
export function safeFileName(raw: string): string {
  const lastSegment = raw.split(/[\\/]/).pop() ?? "";
  const cleaned = lastSegment
    .replace(/\p{Cc}|\p{Cf}/gu, "")
    .replace(/^\.+/, "")
    .trim()
    .slice(0, 255);
  return cleaned || "unnamed";
}

export async function readUpload(request: Request, blobs: BlobStore, maxFileBytes: number): Promise<Upload> {
  const contentType = request.headers.get("Content-Type") ?? "";
  if (!/^multipart\/form-data/i.test(contentType) || !request.body) {
    throw new HttpProblem(
      400,
      "invalid_request",
      "Upload files as multipart/form-data in the field `files`.",
    );
  }
  const parser = busboy({
    headers: { "content-type": contentType },
    limits: { fields: 20, fieldSize: 4096 },
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
  Readable.fromWeb(request.body as import("node:stream/web").ReadableStream<Uint8Array>).pipe(parser);
  try {
    await parsed;
    const files = await Promise.all(writes);
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
    if (error instanceof HttpProblem) throw error;
    throw new HttpProblem(
      400,
      "invalid_request",
      `The multipart body could not be read: ${(error as Error).message}`,
    );
  }
}
