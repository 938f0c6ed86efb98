/** Renders a JSON record as readable "key: value" text: nested objects dotted, arrays joined. */
import { splitSentences } from "../sentences.ts";

/** A value longer than this many words gets its own sentences instead of joining the "key: value; …" line. */
const LONG_VALUE_WORDS = 25;
const FIELDS_PER_SENTENCE = 12;

/**
 * Flattens a record into `[dotted.key, text]` pairs in key order. Arrays of scalars are joined with ", ";
 * arrays of objects contribute each field once, its values joined. Null and empty values are left out.
 */
function flattenRecord(record: Record<string, unknown>): [string, string][] {
  const fields = new Map<string, string[]>();
  const visit = (value: unknown, key: string) => {
    if (value === null || value === undefined) return;
    if (Array.isArray(value)) {
      for (const item of value) visit(item, key);
    } else if (typeof value === "object") {
      for (const [childKey, child] of Object.entries(value))
        visit(child, key === "" ? childKey : `${key}.${childKey}`);
    } else {
      const text = String(value).replace(/\s+/gu, " ").trim();
      if (text === "") return;
      const values = fields.get(key) ?? [];
      values.push(text);
      fields.set(key, values);
    }
  };
  visit(record, "");
  return [...fields].map(([key, values]) => [key === "" ? "value" : key, values.join(", ")]);
}

/**
 * The sentences of a record: short fields joined as "key: value; key: value" (a dozen per sentence),
 * a long text field as its own sentences, the first one prefixed with its key.
 */
export function recordSentences(record: Record<string, unknown>): string[] {
  const sentences: string[] = [];
  let group: string[] = [];
  const closeGroup = () => {
    if (group.length > 0) sentences.push(group.join("; "));
    group = [];
  };
  for (const [key, value] of flattenRecord(record)) {
    if (value.split(" ").length > LONG_VALUE_WORDS) {
      closeGroup();
      const [first, ...rest] = splitSentences(value);
      sentences.push(`${key}: ${first ?? ""}`, ...rest);
    } else {
      group.push(`${key}: ${value}`);
      if (group.length >= FIELDS_PER_SENTENCE) closeGroup();
    }
  }
  closeGroup();
  return sentences;
}
