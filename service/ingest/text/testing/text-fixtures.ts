/** Helpers for this folder's tests: fixture bytes, text as bytes, and the sentences of a block. */
import { readFileSync } from "node:fs";
import type { TextSourceBlock } from "../../types.ts";

/** The bytes of `fixtures/<name>`. */
export function fixture(name: string): Uint8Array {
  return readFileSync(new URL(`../fixtures/${name}`, import.meta.url));
}

/** `text` encoded as UTF-8. */
export function bytesOf(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/** The sentence texts of a block. */
export function sentencesOf(block: TextSourceBlock | undefined): string[] {
  return block?.sentences.map((sentence) => sentence.text) ?? [];
}
