/** Reads JSON and JSON Lines files into one catalogue-record block per record. */
import { SourceReadError, type TextExtraction, type TextSourceBlock } from "../types.ts";
import { decodeSourceText } from "./decode-text.ts";
import { recordSentences } from "./flatten-record.ts";
import { findJsonProblem } from "./json-error-location.ts";
import { sentenceBlocks } from "./text-blocks.ts";
import type { TextReader } from "./text-reader.ts";

type JsonRecord = Record<string, unknown>;

/**
 * Reads a `.json` file: each item of a top-level array is a record; a top-level object is one record,
 * unless its only array of objects holds the records (`{"items": [...]}`), its other fields then
 * giving the title.
 */
export const readJson: TextReader = (_fileName, bytes): TextExtraction => {
  const { text, warnings } = decodeSourceText(bytes);
  const data = parseJson(text, "The JSON file is not valid");
  if (!isRecord(data))
    return { title: null, blocks: (Array.isArray(data) ? data : [data]).flatMap(recordBlocks), warnings };
  const lists = Object.values(data).filter(
    (value): value is unknown[] => Array.isArray(value) && value.length > 0 && value.every(isRecord),
  );
  const items = lists.length === 1 && lists[0] ? lists[0] : [data];
  return { title: recordTitle(data), blocks: items.flatMap(recordBlocks), warnings };
};

/** Reads a `.jsonl` / `.ndjson` file: one record per non-blank line. */
export const readJsonLines: TextReader = (_fileName, bytes): TextExtraction => {
  const { text, warnings } = decodeSourceText(bytes);
  const blocks: TextSourceBlock[] = [];
  text.split("\n").forEach((line, index) => {
    if (line.trim() === "") return;
    blocks.push(...recordBlocks(parseJson(line, `Malformed JSON Lines at line ${index + 1}`, false)));
  });
  return { title: null, blocks, warnings };
};

function recordBlocks(item: unknown): TextSourceBlock[] {
  const record: JsonRecord = isRecord(item) ? item : { value: item };
  const heading = recordTitle(record);
  return sentenceBlocks(heading ? [heading] : [], recordSentences(record), {
    kind: "catalogue_record",
    record,
  });
}

/** A record's `title` or `name` field (any letter case) as plain text. */
function recordTitle(record: JsonRecord): string | null {
  for (const wanted of ["title", "name"]) {
    const key = Object.keys(record).find((candidate) => candidate.toLowerCase() === wanted);
    const value = key === undefined ? undefined : record[key];
    if (typeof value === "string" || typeof value === "number") {
      const text = String(value)
        .replace(/<[^>]*>/gu, "")
        .replace(/\s+/gu, " ")
        .trim();
      if (text !== "") return text;
    }
  }
  return null;
}

/** `JSON.parse` with a plain-language error; `withLine` adds the line and column of the problem. */
function parseJson(text: string, prefix: string, withLine = true): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    const found = findJsonProblem(text);
    if (!found) throw new SourceReadError(`${prefix}: ${error.message}`);
    const where = withLine ? ` at line ${found.line}, column ${found.column}` : ` (column ${found.column})`;
    throw new SourceReadError(`${prefix}${where}: ${found.problem}.`);
  }
}

function isRecord(value: unknown): value is JsonRecord {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
