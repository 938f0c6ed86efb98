/** Sentence splitter for prose, list items and transcripts: a cited span is a run of these sentences. */

/** Abbreviations a sentence practically never ends with (titles before a name, "e.g."…). */
const NEVER_FINAL = new Set(
  (
    "mr mrs ms mx dr prof sr jr st mt messrs mme mlle gen col capt lt sgt rev hon gov sen rep pres supt " +
    "e.g i.e cf vs viz approx ca resp incl esp"
  ).split(" "),
);

/** Abbreviations that precede a number: "No. 5", "Fig. 3", "Jan. 12". */
const BEFORE_NUMBER = new Set(
  (
    "no nos fig figs eq eqs vol vols p pp ch chap sec sect art ed op ver v " +
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

export interface SplitSentencesOptions {
  /** A run longer than this many words without a sentence end is cut (preferably at a comma). */
  maxWords?: number;
}

/**
 * Splits text into sentences, with whitespace collapsed.
 * Periods inside tokens (3.14, 1.2.3, apt.conf, example.com/a.b) never split; common abbreviations
 * (e.g., i.e., Mr., Fig. 3, U.S.) do not split either; a run of more than ~60 words is cut.
 * @example splitSentences("Install v1.2.3 first. Then edit apt.conf, e.g. with nano.")
 * // → ["Install v1.2.3 first.", "Then edit apt.conf, e.g. with nano."]
 */
export function splitSentences(text: string, options: SplitSentencesOptions = {}): string[] {
  const maxWords = options.maxWords ?? DEFAULT_MAX_WORDS;
  const sentences: string[] = [];
  // Ideographic full stops need no following space, so they are cut before the word scan.
  for (const piece of text.split(/(?<=[。！？])/u)) {
    const words = piece.split(/\s+/u).filter((word) => word !== "");
    let start = 0;
    for (let index = 0; index < words.length; index += 1) {
      if (index === words.length - 1 || endsSentence(words, index, start)) {
        sentences.push(...cutLongRun(words.slice(start, index + 1), maxWords));
        start = index + 1;
      }
    }
  }
  return sentences;
}

function endsSentence(words: string[], index: number, sentenceStart: number): boolean {
  const word = words[index] ?? "";
  const next = words[index + 1] ?? "";
  const core = word.replace(CLOSERS, "");
  if (!/[.!?…]$/u.test(core) || !opensSentence(next)) return false;
  if (!core.endsWith(".") || core.endsWith("...")) return true;
  const stem = core.slice(0, -1).replace(OPENERS, "");
  const lower = stem.toLowerCase();
  if (NEVER_FINAL.has(lower)) return false;
  if (BEFORE_NUMBER.has(lower) && /^\d/u.test(next.replace(OPENERS, ""))) return false;
  // "1. Install…" opening a sentence is a list number, not a one-word sentence.
  if (index === sentenceStart && /^\d{1,3}$/u.test(stem)) return false;
  // Initials ("J. R. Tolkien") and dotted abbreviations ("U.S.", "a.m.") end a sentence only before an opener.
  if (AMBIGUOUS.has(lower) || /^\p{Lu}$/u.test(stem) || /^(\p{L}\.)+\p{L}$/u.test(stem)) {
    return SENTENCE_OPENERS.has(bareWord(next));
  }
  return true;
}

function opensSentence(word: string): boolean {
  const first = word.replace(OPENERS, "").charAt(0);
  return first !== "" && !/\p{Ll}/u.test(first);
}

function bareWord(word: string): string {
  return word
    .replace(OPENERS, "")
    .replace(/[^\p{L}]+$/u, "")
    .toLowerCase();
}

/** Cuts an unpunctuated run into pieces of at most `maxWords`, preferring a cut after , ; or :. */
function cutLongRun(words: string[], maxWords: number): string[] {
  const pieces: string[] = [];
  let start = 0;
  while (words.length - start > maxWords) {
    const remaining = words.length - start;
    // Halving a run just over the limit avoids leaving a one-word tail.
    let cut = remaining <= maxWords * 1.5 ? Math.ceil(remaining / 2) : maxWords;
    for (let candidate = cut; candidate >= Math.ceil((cut * 2) / 3); candidate -= 1) {
      if (/[,;:]$/u.test(words[start + candidate - 1] ?? "")) {
        cut = candidate;
        break;
      }
    }
    pieces.push(words.slice(start, start + cut).join(" "));
    start += cut;
  }
  if (start < words.length) pieces.push(words.slice(start).join(" "));
  return pieces;
}
