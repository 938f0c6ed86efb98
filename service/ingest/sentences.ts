/**
 * Sentence boundaries for every reader (PDF blocks, prose, list items, transcripts, records): a cited span
 * is a run of these sentences, so a reader of the citation should agree with where they end.
 */

export interface TextRange {
  start: number;
  end: number;
}

export interface SentenceOptions {
  /** A run longer than this many words without a sentence end is cut. */
  maxWords?: number;
  /**
   * Where the lines of a PDF block begin: a run is then cut at a line start, so every piece highlights
   * whole lines. Without them it is cut after a comma, semicolon or colon where there is one.
   */
  lineOffsets?: readonly number[];
}

/** Abbreviations a sentence practically never ends with (titles before a name, "e.g."…). */
const NEVER_FINAL = new Set(
  (
    "mr mrs ms mx dr prof sr jr st mt messrs mme mlle gen col capt lt sgt rev hon gov sen rep pres supt " +
    "e.g i.e cf vs viz approx ca resp incl esp"
  ).split(" "),
);

/** Abbreviations that precede a number or a label ("No. 5", "Fig. S1", "Sec. IV", "Jan. 12"): they end a sentence only before an opener. */
const BEFORE_NUMBER = new Set(
  (
    "no nos fig figs eq eqs vol vols p pp ch chap sec sect art ed op ver v ref refs " +
    "jan feb mar apr jun jul aug sep sept oct nov dec"
  ).split(" "),
);

/** Abbreviations that end a sentence only when a typical sentence opener follows ("… in the U.S. The …"). */
const AMBIGUOUS = new Set(["inc", "ltd", "co", "corp", "llc", "al"]);

const SENTENCE_OPENERS = new Set(
  (
    "the a an this that these those it its we i he she they you our their there here in on at for but and " +
    "however then if when as after before so to from with all some many most each one what how why also " +
    "finally first next"
  ).split(" "),
);

const CLOSERS = /["'”’)\]}»*_]+$/u;
const OPENERS = /^["'“‘([{«¿¡*_`]+/u;
const DEFAULT_MAX_WORDS = 60;

interface Word {
  start: number;
  end: number;
  text: string;
}

/** The text cut after each ideographic full stop, which needs no following space. */
function segments(text: string): TextRange[] {
  const found: TextRange[] = [];
  let start = 0;
  for (const match of text.matchAll(/[。！？]+/gu)) {
    const end = match.index + match[0].length;
    found.push({ start, end });
    start = end;
  }
  found.push({ start, end: text.length });
  return found;
}

function wordsIn(text: string, segment: TextRange): Word[] {
  const words: Word[] = [];
  for (const match of text.slice(segment.start, segment.end).matchAll(/\S+/gu)) {
    const start = segment.start + match.index;
    words.push({ start, end: start + match[0].length, text: match[0] });
  }
  return words;
}

function bareWord(word: string): string {
  return word
    .replace(OPENERS, "")
    .replace(/[^\p{L}]+$/u, "")
    .toLowerCase();
}

function opensSentence(word: string): boolean {
  const first = word.replace(OPENERS, "").charAt(0);
  return first !== "" && !/\p{Ll}/u.test(first);
}

function endsSentence(words: readonly Word[], index: number, sentenceStart: number): boolean {
  const word = words[index]?.text ?? "";
  const next = words[index + 1]?.text ?? "";
  const core = word.replace(CLOSERS, "");
  if (!/[.!?…]$/u.test(core) || !opensSentence(next)) return false;
  if (!core.endsWith(".") || core.endsWith("...")) return true;
  const stem = core.slice(0, -1).replace(OPENERS, "");
  const lower = stem.toLowerCase();
  if (NEVER_FINAL.has(lower)) return false;
  // "1. Install…" opening a sentence is a list number, not a one-word sentence.
  if (index === sentenceStart && /^\d{1,3}$/u.test(stem)) return false;
  // Initials ("J. R. Tolkien") and dotted abbreviations ("U.S.", "a.m.") end a sentence only before an opener.
  if (
    AMBIGUOUS.has(lower) ||
    BEFORE_NUMBER.has(lower) ||
    /^\p{Lu}$/u.test(stem) ||
    /^(\p{L}\.)+\p{L}$/u.test(stem)
  ) {
    // "A3" is a label, not the article "a".
    return SENTENCE_OPENERS.has(bareWord(next)) && !/\d/u.test(next);
  }
  return true;
}

const span = (words: readonly Word[], first: number, end: number): TextRange => ({
  start: (words[first] as Word).start,
  end: (words[end - 1] as Word).end,
});

/** Cuts a run at the last line start that keeps each piece within `maxWords`, else after `maxWords` words. */
function cutAtLines(words: readonly Word[], maxWords: number, lineOffsets: readonly number[]): TextRange[] {
  const pieces: TextRange[] = [];
  let first = 0;
  while (words.length - first > maxWords) {
    const start = (words[first] as Word).start;
    const limit = (words[first + maxWords] as Word).start;
    let cut = limit;
    for (const offset of lineOffsets) if (offset > start && offset <= limit) cut = offset;
    let end = first;
    while (end < words.length && (words[end] as Word).start < cut) end++;
    pieces.push(span(words, first, end));
    first = end;
  }
  pieces.push(span(words, first, words.length));
  return pieces;
}

/** Cuts a run into pieces of at most `maxWords`, preferring a cut after , ; or :. */
function cutAtCommas(words: readonly Word[], maxWords: number): TextRange[] {
  const pieces: TextRange[] = [];
  let first = 0;
  while (words.length - first > maxWords) {
    const remaining = words.length - first;
    // Halving a run just over the limit avoids leaving a one-word tail.
    let cut = remaining <= maxWords * 1.5 ? Math.ceil(remaining / 2) : maxWords;
    for (let candidate = cut; candidate >= Math.ceil((cut * 2) / 3); candidate -= 1) {
      if (/[,;:]$/u.test(words[first + candidate - 1]?.text ?? "")) {
        cut = candidate;
        break;
      }
    }
    pieces.push(span(words, first, first + cut));
    first += cut;
  }
  pieces.push(span(words, first, words.length));
  return pieces;
}

/** Sentence ranges of `text`: trimmed, never empty, in order. */
export function sentenceRanges(text: string, options: SentenceOptions = {}): TextRange[] {
  const maxWords = options.maxWords ?? DEFAULT_MAX_WORDS;
  const ranges: TextRange[] = [];
  for (const segment of segments(text)) {
    const words = wordsIn(text, segment);
    let first = 0;
    for (let index = 0; index < words.length; index++) {
      if (index < words.length - 1 && !endsSentence(words, index, first)) continue;
      const sentence = words.slice(first, index + 1);
      if (sentence.length <= maxWords) ranges.push(span(sentence, 0, sentence.length));
      else if (options.lineOffsets !== undefined)
        ranges.push(...cutAtLines(sentence, maxWords, options.lineOffsets));
      else ranges.push(...cutAtCommas(sentence, maxWords));
      first = index + 1;
    }
  }
  return ranges;
}

/**
 * Splits text into sentences, with whitespace collapsed. Periods inside tokens (3.14, 1.2.3, apt.conf,
 * example.com/a.b) never split; common abbreviations (e.g., i.e., Mr., Fig. 3, U.S.) do not either.
 * @example splitSentences("Install v1.2.3 first. Then edit apt.conf, e.g. with nano.")
 * // → ["Install v1.2.3 first.", "Then edit apt.conf, e.g. with nano."]
 */
export function splitSentences(text: string, options: SentenceOptions = {}): string[] {
  return sentenceRanges(text, options).map((range) =>
    text.slice(range.start, range.end).replace(/\s+/gu, " "),
  );
}
