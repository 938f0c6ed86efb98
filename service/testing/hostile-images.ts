/** Image files a careless or hostile customer uploads: truncated, mislabelled, a path list, a pixel bomb. */
import { crc32, deflateSync } from "node:zlib";

function pngChunk(type: string, data: Uint8Array): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const checksum = Buffer.alloc(4);
  checksum.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, checksum]);
}

/**
 * A valid 1-bit white PNG of `side` × `side` pixels: a few kilobytes that decode to `side`² pixels
 * (20000 gives 400 million from 76 kB).
 */
export function pixelBombPng(side: number): Uint8Array {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // grayscale
  const row = Buffer.alloc(1 + Math.ceil(side / 8), 0xff);
  row[0] = 0; // no filter
  const pixels = Buffer.alloc(row.length * side);
  for (let at = 0; at < pixels.length; at += row.length) row.copy(pixels, at);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", deflateSync(pixels, { level: 9 })),
    pngChunk("IEND", new Uint8Array()),
  ]);
}
