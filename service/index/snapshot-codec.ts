/**
 * The binary snapshot of a compacted index: magic, version, a JSON header (parameters, counts, terms and
 * ids), then the raw typed arrays, each 4-byte aligned, so loading re-tokenizes nothing.
 */
import { z } from "zod";
import { analyzerVersion } from "./analyzer.ts";
import type { Bm25Parameters } from "./bm25-parameters.ts";
import type { PassageColumns } from "./passage-table.ts";

const snapshotVersion = 1;

export interface SnapshotPostings {
  terms: string[];
  offsets: Uint32Array;
  ordinals: Uint32Array;
  frequencies: Float32Array;
}

export interface Bm25Snapshot {
  parameters: Bm25Parameters;
  postings: SnapshotPostings;
  passages: PassageColumns;
}

/** A snapshot that cannot be read; the caller rebuilds the index from the stored passages. */
export class IndexSnapshotError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "IndexSnapshotError";
  }
}

const magic = 0x5844_4b43; // "CKDX" read as a little-endian uint32
const prefixBytes = 12; // magic, version, header length

const headerSchema = z.object({
  analyzerVersion: z.number().int(),
  parameters: z.object({
    k1: z.number(),
    b: z.number(),
    fieldWeights: z.object({ text: z.number(), title: z.number(), heading: z.number() }),
  }),
  postingCount: z.number().int().nonnegative(),
  terms: z.array(z.string()),
  passageIds: z.array(z.string()),
  documentIds: z.array(z.string()),
  datasourceIds: z.array(z.string()),
});
type SnapshotHeader = z.infer<typeof headerSchema>;

const align4 = (byteLength: number): number => (byteLength + 3) & ~3;

export function encodeSnapshot(snapshot: Bm25Snapshot): Uint8Array {
  const { postings, passages } = snapshot;
  const header: SnapshotHeader = {
    analyzerVersion,
    parameters: snapshot.parameters,
    postingCount: postings.ordinals.length,
    terms: postings.terms,
    passageIds: passages.passageIds,
    documentIds: passages.documentIds,
    datasourceIds: passages.datasourceIds,
  };
  const headerBytes = new TextEncoder().encode(JSON.stringify(header));
  const arrays = [
    postings.offsets,
    postings.ordinals,
    postings.frequencies,
    passages.documentOrdinals,
    passages.lengths,
    passages.datasourceOrdinals,
  ];
  let size = align4(prefixBytes + headerBytes.length);
  for (const array of arrays) size += align4(array.byteLength);
  const bytes = new Uint8Array(size);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, magic, true);
  view.setUint32(4, snapshotVersion, true);
  view.setUint32(8, headerBytes.length, true);
  bytes.set(headerBytes, prefixBytes);
  let offset = align4(prefixBytes + headerBytes.length);
  for (const array of arrays) {
    bytes.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), offset);
    offset += align4(array.byteLength);
  }
  return bytes;
}

export function decodeSnapshot(bytes: Uint8Array): Bm25Snapshot {
  if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) {
    throw new IndexSnapshotError("BM25 snapshots are little-endian; this platform is big-endian");
  }
  if (bytes.byteLength < prefixBytes) throw new IndexSnapshotError("not a BM25 snapshot: too short");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== magic)
    throw new IndexSnapshotError("not a BM25 snapshot: wrong magic number");
  const version = view.getUint32(4, true);
  if (version !== snapshotVersion) {
    throw new IndexSnapshotError(
      `unsupported BM25 snapshot version ${version} (this build reads version ${snapshotVersion}); rebuild the index from the stored passages`,
    );
  }
  const headerLength = view.getUint32(8, true);
  const header = parseHeader(bytes.subarray(prefixBytes, prefixBytes + headerLength));
  if (header.analyzerVersion !== analyzerVersion) {
    throw new IndexSnapshotError(
      `BM25 snapshot built with analyzer version ${header.analyzerVersion} (this build uses ${analyzerVersion}); rebuild the index from the stored passages`,
    );
  }
  const termCount = header.terms.length;
  const passageCount = header.passageIds.length;
  const reader = createArrayReader(bytes, align4(prefixBytes + headerLength));
  const snapshot: Bm25Snapshot = {
    parameters: header.parameters,
    postings: {
      terms: header.terms,
      offsets: reader.read(Uint32Array, termCount + 1),
      ordinals: reader.read(Uint32Array, header.postingCount),
      frequencies: reader.read(Float32Array, header.postingCount),
    },
    passages: {
      passageIds: header.passageIds,
      documentIds: header.documentIds,
      datasourceIds: header.datasourceIds,
      documentOrdinals: reader.read(Uint32Array, passageCount),
      lengths: reader.read(Float32Array, passageCount),
      datasourceOrdinals: reader.read(Uint16Array, passageCount),
    },
  };
  checkReferences(snapshot);
  return snapshot;
}

function parseHeader(headerBytes: Uint8Array): SnapshotHeader {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(headerBytes));
  } catch (error) {
    throw new IndexSnapshotError(`corrupt BM25 snapshot header: ${(error as Error).message}`);
  }
  const parsed = headerSchema.safeParse(json);
  if (!parsed.success) throw new IndexSnapshotError(`corrupt BM25 snapshot header: ${parsed.error.message}`);
  return parsed.data;
}

type TypedArrayConstructor<T> = {
  new (buffer: ArrayBuffer, byteOffset: number, length: number): T;
  BYTES_PER_ELEMENT: number;
};

function createArrayReader(bytes: Uint8Array, start: number) {
  // One copy of the array region: views into it are aligned whatever the caller's byte offset, and the
  // index neither pins nor shares the caller's buffer. (Not `bytes.slice`: on a Buffer that is a view.)
  const region = new Uint8Array(bytes.subarray(start)).buffer;
  let offset = 0;
  return {
    read<T extends Uint32Array | Uint16Array | Float32Array>(
      type: TypedArrayConstructor<T>,
      length: number,
    ): T {
      const byteLength = length * type.BYTES_PER_ELEMENT;
      if (offset + byteLength > region.byteLength) throw new IndexSnapshotError("truncated BM25 snapshot");
      const array = new type(region, offset, length);
      offset += align4(byteLength);
      return array;
    },
  };
}

/** Rejects out-of-range references, which would otherwise surface as NaN scores or missing ids. */
function checkReferences({ postings, passages }: Bm25Snapshot): void {
  const { offsets, ordinals } = postings;
  if (offsets[0] !== 0 || offsets[offsets.length - 1] !== ordinals.length) {
    throw new IndexSnapshotError("corrupt BM25 snapshot: postings offsets do not cover the postings");
  }
  for (let termId = 1; termId < offsets.length; termId++) {
    if (offsets[termId]! < offsets[termId - 1]!)
      throw new IndexSnapshotError("corrupt BM25 snapshot: offsets");
  }
  if (maximum(ordinals) >= passages.passageIds.length && ordinals.length > 0) {
    throw new IndexSnapshotError("corrupt BM25 snapshot: a posting refers to a missing passage");
  }
  const passageCount = passages.passageIds.length;
  if (
    passageCount > 0 &&
    (maximum(passages.documentOrdinals) >= passages.documentIds.length ||
      maximum(passages.datasourceOrdinals) >= passages.datasourceIds.length)
  ) {
    throw new IndexSnapshotError(
      "corrupt BM25 snapshot: a passage refers to a missing document or datasource",
    );
  }
}

function maximum(values: Uint32Array | Uint16Array): number {
  let largest = 0;
  for (let index = 0; index < values.length; index++) {
    const value = values[index]!;
    if (value > largest) largest = value;
  }
  return largest;
}
