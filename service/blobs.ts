/** Original files, kept on the filesystem by content hash and written atomically. */
import { createHash } from "node:crypto";
import { createWriteStream, mkdirSync } from "node:fs";
import { readdir, readFile, rename, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { randomId } from "./ids.ts";

export interface StoredBlob {
  sha256: string;
  bytes: number;
}

/** A file in the store, or a staging file of an upload in progress (or cut off), and when it was last written. */
export interface BlobFile {
  /** The content hash, or null for a staging file. */
  sha256: string | null;
  path: string;
  bytes: number;
  modifiedMs: number;
}

const hashName = /^[0-9a-f]{64}$/;
const shardName = /^[0-9a-f]{2}$/;

/** The names in a folder; none when it is gone or not a folder (removed or replaced while listing). */
async function namesIn(folder: string): Promise<string[]> {
  try {
    return await readdir(folder);
  } catch (error) {
    if (["ENOENT", "ENOTDIR"].includes((error as NodeJS.ErrnoException).code ?? "")) return [];
    throw error;
  }
}

/** Thrown while streaming an upload that grows past the limit; the partial file is removed. */
export class BlobTooLargeError extends Error {
  readonly limit: number;
  constructor(limit: number) {
    super(`The file is larger than the limit of ${limit} bytes.`);
    this.name = "BlobTooLargeError";
    this.limit = limit;
  }
}

/** The file system refused a write (full, out of quota, read-only, failing): the service's fault, not the upload's. */
export class BlobStorageError extends Error {
  constructor(cause: NodeJS.ErrnoException) {
    super(`The file store could not write the upload (${cause.code}).`, { cause });
    this.name = "BlobStorageError";
  }
}

const storageFailures = new Set(["ENOSPC", "EDQUOT", "EIO", "EROFS", "EMFILE", "ENFILE"]);

function isStorageFailure(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && storageFailures.has((error as NodeJS.ErrnoException).code ?? "");
}

export function createBlobStore(root: string) {
  const temporary = join(root, "tmp");
  mkdirSync(temporary, { recursive: true });
  const pathOf = (sha256: string) => join(root, sha256.slice(0, 2), sha256);

  return {
    pathOf,
    /** Streams `source` into the store, hashing as it goes; nothing is kept if it is over `limit`. */
    async write(source: Readable, limit: number): Promise<StoredBlob> {
      const staging = join(temporary, randomId("upload"));
      const hash = createHash("sha256");
      let bytes = 0;
      const measure = async function* (chunks: AsyncIterable<Buffer>) {
        for await (const chunk of chunks) {
          bytes += chunk.byteLength;
          if (bytes > limit) throw new BlobTooLargeError(limit);
          hash.update(chunk);
          yield chunk;
        }
      };
      try {
        await pipeline(source, measure, createWriteStream(staging));
        const sha256 = hash.digest("hex");
        mkdirSync(join(root, sha256.slice(0, 2)), { recursive: true });
        await rename(staging, pathOf(sha256));
        return { sha256, bytes };
      } catch (error) {
        await rm(staging, { force: true });
        throw isStorageFailure(error) ? new BlobStorageError(error) : error;
      }
    },
    async read(sha256: string): Promise<Uint8Array> {
      return new Uint8Array(await readFile(pathOf(sha256)));
    },
    /** Every stored file and staging file; files removed while listing are left out. */
    async files(): Promise<BlobFile[]> {
      const found: BlobFile[] = [];
      const add = async (path: string, sha256: string | null): Promise<void> => {
        const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
          if (error.code === "ENOENT") return null;
          throw error;
        });
        if (info?.isFile()) found.push({ sha256, path, bytes: info.size, modifiedMs: info.mtimeMs });
      };
      for (const shard of await namesIn(root)) {
        if (shard === "tmp") {
          for (const name of await namesIn(temporary)) await add(join(temporary, name), null);
        } else if (shardName.test(shard)) {
          for (const name of await namesIn(join(root, shard))) {
            if (hashName.test(name) && name.startsWith(shard)) await add(join(root, shard, name), name);
          }
        }
      }
      return found;
    },
    async remove(file: Pick<BlobFile, "path">): Promise<void> {
      await rm(file.path, { force: true });
    },
    async exists(sha256: string): Promise<boolean> {
      return stat(pathOf(sha256)).then(
        () => true,
        () => false,
      );
    },
  };
}

export type BlobStore = ReturnType<typeof createBlobStore>;
