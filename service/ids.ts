/** Prefixed, URL-safe identifiers: random ones for new records, hashed ones where ids must be durable. */
import { createHash, randomBytes } from "node:crypto";

const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

function base62(bytes: Uint8Array, length: number): string {
  let out = "";
  for (let index = 0; out.length < length; index += 1) {
    // 62 does not divide 256; dropping bytes ≥ 248 keeps every character equally likely.
    const byte = bytes[index % bytes.length]! ^ Math.floor(index / bytes.length);
    if (byte < 248) out += alphabet[byte % 62];
  }
  return out;
}

export function randomId(prefix: string, length = 20): string {
  return `${prefix}_${base62(randomBytes(length * 2), length)}`;
}

/** The same parts always give the same id, so re-ingesting unchanged content keeps its ids. */
export function durableId(prefix: string, ...parts: Array<string | number>): string {
  const digest = createHash("sha256").update(parts.join("\u0000")).digest();
  return `${prefix}_${base62(digest, 20)}`;
}
