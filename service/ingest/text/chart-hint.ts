/** Guesses how a table would be charted from its column types: numbers over dates, categories or numbers. */
import type { ChartHint } from "../../../sdk/core/wire.ts";

export type ColumnType = "number" | "date" | "category" | "text" | "empty";

const MISSING = new Set(["", "-", "–", "—", "n/a", "na", "nan", "null", "none", "?"]);
const MONTH = "(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\\.?";
const DATE_PATTERNS = [
  /^\d{4}-\d{1,2}(-\d{1,2})?([T ]\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/iu,
  /^\d{4}\/\d{1,2}(\/\d{1,2})?$/u,
  /^\d{1,2}[/-]\d{1,2}[/-](\d{2}|\d{4})$/u,
  /^\d{1,2}\.\d{1,2}\.\d{4}$/u,
  /^\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?(\s?[ap]\.?m\.?)?$/iu,
  /^(\d{4}[-\s]?q[1-4]|q[1-4][-\s]?\d{4})$/iu,
  new RegExp(`^${MONTH}(\\s+\\d{1,2}(st|nd|rd|th)?,?)?(\\s+\\d{4})?$`, "iu"),
  new RegExp(`^\\d{1,2}(st|nd|rd|th)?\\s+${MONTH}(\\s+\\d{4})?$`, "iu"),
];
/** A category axis stays readable up to about this many bars. */
const MAX_CATEGORIES = 20;
/** Share of a column's values that must fit a type for the column to have it (tolerates stray notes). */
const AGREEMENT = 0.9;

/**
 * The number a table cell shows, or null: accepts thousands separators, a currency sign, a percent sign,
 * exponents and accounting negatives "(12)"; rejects versions (1.2.3), codes and words.
 */
export function parseNumber(value: string): number | null {
  let text = value.trim().replace(/^[$€£¥]\s?|\s?[$€£¥%]$/gu, "");
  const negative = /^\(.*\)$/u.test(text);
  if (negative) text = text.slice(1, -1);
  if (!/^[-+]?(\d{1,3}(,\d{3})+|\d+)?(\.\d+)?(e[-+]?\d+)?$/iu.test(text) || !/\d/u.test(text)) return null;
  const number = Number(text.replaceAll(",", ""));
  if (!Number.isFinite(number)) return null;
  return negative ? -number : number;
}

/** True for a date, month, quarter or time of day as tables usually write them. */
export function isDateLike(value: string): boolean {
  const text = value.trim();
  return DATE_PATTERNS.some((pattern) => pattern.test(text));
}

/** What a column holds, judged from its non-missing values. A "year" column of integers counts as dates. */
export function columnType(header: string, values: string[]): ColumnType {
  const present = values.map((value) => value.trim()).filter((value) => !MISSING.has(value.toLowerCase()));
  if (present.length === 0) return "empty";
  const share = (test: (value: string) => boolean) => present.filter(test).length / present.length;
  if (share(isDateLike) >= AGREEMENT) return "date";
  if (share((value) => parseNumber(value) !== null) >= AGREEMENT) {
    const years = present.every((value) => /^(1[5-9]|2[0-9])\d{2}$/u.test(value));
    return years && /\b(year|yr|jahr|année|año)s?\b/iu.test(header) ? "date" : "number";
  }
  const distinct = new Set(present).size;
  const short = present.every((value) => value.length <= 60);
  return short &&
    distinct <= MAX_CATEGORIES &&
    (distinct < present.length || present.length <= MAX_CATEGORIES)
    ? "category"
    : "text";
}

/**
 * The chart a table suggests: numbers over a date/time column → line; over a category column (few distinct
 * values) → bar; two or more numeric columns → scatter (first one as x); otherwise none.
 * Identifier columns ("id", "…_id") are never plotted.
 */
export function chooseChartHint(columns: string[], rows: string[][]): ChartHint {
  const none: ChartHint = { type: "none", x: null, y: [] };
  if (rows.length < 2) return none;
  const types = columns.map((header, index) =>
    columnType(
      header,
      rows.map((row) => row[index] ?? ""),
    ),
  );
  const indices = (type: ColumnType) =>
    types.flatMap((columnKind, index) =>
      columnKind === type && !isIdentifier(columns[index] ?? "") ? [index] : [],
    );
  const numeric = indices("number");
  if (numeric.length === 0) return none;
  const names = (list: number[]) => list.map((index) => columns[index] ?? "");
  const [date] = indices("date");
  if (date !== undefined) return { type: "line", x: columns[date] ?? null, y: names(numeric) };
  const [category] = indices("category");
  if (category !== undefined) return { type: "bar", x: columns[category] ?? null, y: names(numeric) };
  const [first, ...rest] = numeric;
  if (first !== undefined && rest.length > 0)
    return { type: "scatter", x: columns[first] ?? null, y: names(rest) };
  return none;
}

function isIdentifier(header: string): boolean {
  const name = header.trim();
  return /^(id|#|no\.?|index)$|[_\s-]id$/iu.test(name) || /\p{Ll}Id$/u.test(name);
}
