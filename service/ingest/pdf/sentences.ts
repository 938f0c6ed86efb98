/** Sentence boundaries inside a block of text, tuned for technical prose (abbreviations, versions, file names). */

export interface TextRange {
  start: number;
  end: number;
}

const ABBREVIATIONS = new Set([
  "al",
  "approx",
  "ca",
  "cf",
  "ch",
  "dr",
  "eq",
  "eqs",
  "fig",
  "figs",
  "jr",
  "mr",
  "mrs",
  "ms",
  "no",
  "nos",
  "pp",
  "prof",
  "ref",
  "resp",
  "sec",
  "sr",
  "st",
  "viz",
  "vol",
  "vs",
]);

// A sentence end: terminal punctuation, optional closing quotes or brackets, then a space.
const TERMINAL = /[.!?…]+["'”’)\]]*(?=\s)/gu;
// What may start the next sentence: a capital, a digit, an opening quote or bracket, a bullet.
const SENTENCE_START = /^[\p{Lu}\p{Lt}\d"'“‘([•]/u;

function wordBefore(text: string, punctuationAt: number): string {
  let start = punctuationAt;
  while (start > 0 && !/\s/.test(text[start - 1] ?? " ")) start--;
  return text.slice(start, punctuationAt);
}

function isBoundary(text: string, match: RegExpExecArray): boolean {
  const after = text.slice(match.index + match[0].length).trimStart();
  if (after === "" || !SENTENCE_START.test(after)) return false;
  if (!match[0].startsWith(".")) return true;
  const word = wordBefore(text, match.index);
  const bare = word.replace(/^[("'“‘[]+/u, "").toLowerCase();
  if (ABBREVIATIONS.has(bare)) return false;
  // Initials and dotted abbreviations: "J.", "e.g.", "i.e.", "U.S." (the final dot is the match).
  if (/^(?:\p{L}\.)*\p{L}$/u.test(bare) && bare.length <= 5 && !/^\p{Ll}{2,}$/u.test(bare)) return false;
  // An enumerator at the very start of a block: "1. Install the package".
  if (/^\d+$/.test(bare) && text.slice(0, match.index).trim() === bare) return false;
  return true;
}

// Block text only holds plain spaces as whitespace (see text-clean.ts), so a char code test suffices.
const isSpace = (text: string, index: number): boolean => text.charCodeAt(index) === 32;

/** Offsets where the words of `text[start, end)` begin. */
function wordStarts(text: string, start: number, end: number): number[] {
  const starts: number[] = [];
  for (let index = start; index < end; index++) {
    if (!isSpace(text, index) && (index === start || isSpace(text, index - 1))) starts.push(index);
  }
  return starts;
}

function trimRange(text: string, start: number, end: number): TextRange | null {
  let from = start;
  let to = end;
  while (from < to && isSpace(text, from)) from++;
  while (to > from && isSpace(text, to - 1)) to--;
  return from < to ? { start: from, end: to } : null;
}

/**
 * Cuts an over-long sentence (a table, a code listing, a run without punctuation) into units of
 * at most `maxWords` words, preferring line boundaries so each unit highlights whole lines.
 */
function capLength(
  text: string,
  range: TextRange,
  lineOffsets: readonly number[],
  maxWords: number,
): TextRange[] {
  const words = wordStarts(text, range.start, range.end);
  if (words.length <= maxWords) return [range];
  const lines = lineOffsets.filter((offset) => offset > range.start && offset < range.end);
  const units: TextRange[] = [];
  let firstWord = 0;
  let line = 0;
  while (words.length - firstWord > maxWords) {
    const start = words[firstWord] as number;
    // The last line start that keeps the unit within the limit; else cut after `maxWords` words.
    const limit = words[firstWord + maxWords] as number;
    while (line < lines.length && (lines[line] as number) <= start) line++;
    let cut = -1;
    while (line < lines.length && (lines[line] as number) <= limit) cut = lines[line++] as number;
    if (cut < 0) cut = limit;
    const unit = trimRange(text, start, cut);
    if (unit !== null) units.push(unit);
    while (firstWord < words.length && (words[firstWord] as number) < cut) firstWord++;
  }
  const last = trimRange(text, words[firstWord] as number, range.end);
  if (last !== null) units.push(last);
  return units;
}

/** Splits `text` into sentence ranges (trimmed, never empty). `lineOffsets` are where lines begin. */
export function splitSentences(text: string, lineOffsets: readonly number[], maxWords = 60): TextRange[] {
  const ranges: TextRange[] = [];
  let start = 0;
  for (const match of text.matchAll(TERMINAL)) {
    if (!isBoundary(text, match)) continue;
    const end = match.index + match[0].length;
    const range = trimRange(text, start, end);
    if (range !== null) ranges.push(...capLength(text, range, lineOffsets, maxWords));
    start = end;
  }
  const rest = trimRange(text, start, text.length);
  if (rest !== null) ranges.push(...capLength(text, rest, lineOffsets, maxWords));
  return ranges;
}
