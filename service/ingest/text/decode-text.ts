/** Turns a file's bytes into clean text: BOM, UTF-16, invalid UTF-8, CRLF and NUL handled once for every reader. */
import { SourceReadError } from "../types.ts";

export interface DecodedText {
  text: string;
  warnings: string[];
}

/**
 * Decodes `bytes` as UTF-8 (or UTF-16 when a BOM says so, or `encoding` when the file declares one),
 * normalises line ends to `\n` and drops NUL characters.
 * Invalid UTF-8 is decoded with replacement characters and reported in `warnings`.
 * @throws SourceReadError "The file is empty." when nothing but whitespace remains.
 */
export function decodeSourceText(bytes: Uint8Array, encoding?: string): DecodedText {
  const warnings: string[] = [];
  const label = bomEncoding(bytes) ?? supportedEncoding(encoding) ?? "utf-8";
  let text: string;
  try {
    text = new TextDecoder(label, { fatal: true }).decode(bytes);
  } catch {
    text = new TextDecoder(label).decode(bytes);
    const replaced = countReplacements(text);
    warnings.push(
      `The file is not valid ${label.toUpperCase()}: ${replaced} ${replaced === 1 ? "character" : "characters"} could not be read and ${replaced === 1 ? "was" : "were"} replaced with "\uFFFD".`,
    );
  }
  // TextDecoder strips a BOM only for its own encoding; a stray one would end up in the first heading.
  text = text
    .replace(/^\uFEFF/, "")
    .replace(/\r\n?/g, "\n")
    .replaceAll("\u0000", "");
  if (text.trim() === "") throw new SourceReadError("The file is empty.");
  return { text, warnings };
}

function bomEncoding(bytes: Uint8Array): string | null {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  return null;
}

function supportedEncoding(label: string | undefined): string | null {
  if (!label) return null;
  try {
    return new TextDecoder(label.trim().toLowerCase()).encoding;
  } catch {
    // An unknown declared charset: UTF-8 is the best guess for anything saved recently.
    return null;
  }
}

function countReplacements(text: string): number {
  let count = 0;
  for (const character of text) if (character === "\uFFFD") count += 1;
  return count;
}
