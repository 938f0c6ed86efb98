/** Picks the reader for a non-PDF file (text, or a zipped document: DOCX, PPTX, XLSX, ODS, EPUB) by its extension (or its first bytes) and runs it. */
import { SourceReadError, type TextExtraction } from "../types.ts";
import { readDocx } from "../zip-formats/read-docx.ts";
import { readEpub } from "../zip-formats/read-epub.ts";
import { readOds } from "../zip-formats/read-ods.ts";
import { readPptx } from "../zip-formats/read-pptx.ts";
import { readXlsx } from "../zip-formats/read-xlsx.ts";
import { readCsv, readTsv } from "./read-delimited.ts";
import { readHtml } from "./read-html.ts";
import { readJson, readJsonLines } from "./read-json.ts";
import { readMarkdown } from "./read-markdown.ts";
import { readPlainText } from "./read-plain-text.ts";
import { readSrt, readWebVtt } from "./read-transcript.ts";
import type { TextReadContext, TextReader } from "./text-reader.ts";

const READERS: Record<string, TextReader> = {
  md: readMarkdown,
  markdown: readMarkdown,
  mdown: readMarkdown,
  mkd: readMarkdown,
  txt: readPlainText,
  text: readPlainText,
  html: readHtml,
  htm: readHtml,
  xhtml: readHtml,
  csv: readCsv,
  tsv: readTsv,
  tab: readTsv,
  vtt: readWebVtt,
  srt: readSrt,
  json: readJson,
  jsonl: readJsonLines,
  ndjson: readJsonLines,
  docx: readDocx,
  pptx: readPptx,
  xlsx: readXlsx,
  ods: readOds,
  epub: readEpub,
};

/** Extensions `readTextSource` reads, with their dot, e.g. ".md". */
export const supportedTextExtensions: readonly string[] = Object.keys(READERS).map(
  (extension) => `.${extension}`,
);

/** Plain-text files may really hold a saved page or subtitles; the content decides for them. */
const SNIFFED_OVER_EXTENSION = new Set(["txt", "text"]);
const SNIFF_BYTES = 2048;

/** True when `readTextSource` has a reader for this file (by extension or by content). */
export function isTextSource(fileName: string, bytes: Uint8Array): boolean {
  return pickReader(fileName, bytes) !== null;
}

/**
 * Reads a non-PDF source into passage-sized blocks.
 * @throws SourceReadError for an unsupported type, an empty file, malformed content (naming the line)
 * or a file with no readable text.
 * @example readTextSource("notes.md", bytes, { datasourceUrl: null }).blocks[0]?.headingPath
 */
export function readTextSource(
  fileName: string,
  bytes: Uint8Array,
  context: TextReadContext = {},
): TextExtraction {
  const reader = pickReader(fileName, bytes);
  if (!reader) {
    const extension = extensionOf(fileName);
    const type = extension === "" ? `"${fileName}" has no extension and is not text` : `.${extension}`;
    throw new SourceReadError(
      `Unsupported file type: ${type}. Supported types are ${supportedTextExtensions.join(", ")}.`,
    );
  }
  const extraction = reader(fileName, bytes, context);
  if (extraction.blocks.length === 0) throw new SourceReadError("No readable text was found in the file.");
  return extraction;
}

function pickReader(fileName: string, bytes: Uint8Array): TextReader | null {
  const extension = extensionOf(fileName);
  const known = READERS[extension];
  if (known && !SNIFFED_OVER_EXTENSION.has(extension)) return known;
  const head = new TextDecoder()
    .decode(bytes.subarray(0, SNIFF_BYTES))
    .replace(/^\uFEFF/u, "")
    .trimStart();
  const sniffed = sniffReader(head);
  if (sniffed) return sniffed;
  if (known) return known;
  return extension === "" && looksLikeText(bytes) ? readPlainText : null;
}

function sniffReader(head: string): TextReader | null {
  if (/^WEBVTT(\s|$)/u.test(head)) return readWebVtt;
  if (/^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<(!doctype\s+html|html|head|body)[\s>]/iu.test(head))
    return readHtml;
  if (/^\d+[ \t]*\r?\n[ \t]*(\d+:)?\d{1,2}:\d{2}[,.]\d{1,3}[ \t]*-->/u.test(head)) return readSrt;
  return null;
}

/** No NUL bytes and almost no control characters in the first bytes: text, not a binary format. */
function looksLikeText(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, SNIFF_BYTES);
  let control = 0;
  for (const byte of head) {
    if (byte === 0) return false;
    if (byte < 9 || (byte > 13 && byte < 32)) control += 1;
  }
  return control <= head.length * 0.01;
}

function extensionOf(fileName: string): string {
  const base = fileName.split(/[/\\]/u).at(-1) ?? "";
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : "";
}
