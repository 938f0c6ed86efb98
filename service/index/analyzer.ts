/** Text → index terms: Unicode word split, NFKC + lowercase, Lucene's English stop words, Porter stems. */
import { stemmer } from "stemmer";

/**
 * Bump when a change here alters the terms of any text: snapshots store it, and one built with another
 * version is refused (its terms would no longer match the queries), so the index is rebuilt.
 */
export const analyzerVersion = 1;

/** An index term with the weight its query clause carries (a repeated word counts twice). */
export interface WeightedTerm {
  term: string;
  weight: number;
}

/** Lucene's `EnglishAnalyzer.ENGLISH_STOP_WORDS_SET` (33 words). */
export const englishStopWords: ReadonlySet<string> = new Set([
  "a",
  "an",
  "and",
  "are",
  "as",
  "at",
  "be",
  "but",
  "by",
  "for",
  "if",
  "in",
  "into",
  "is",
  "it",
  "no",
  "not",
  "of",
  "on",
  "or",
  "such",
  "that",
  "the",
  "their",
  "then",
  "there",
  "these",
  "they",
  "this",
  "to",
  "was",
  "will",
  "with",
]);

// Words joined by `-`, `.`, `_` or an apostrophe stay one match, so that `apt-get`, `sources.list` and
// `max_connections` can also be indexed in their joined form (`aptget`); \p{M} keeps Indic words whole.
const compoundPattern = /[\p{L}\p{M}\p{N}]+(?:[-._'’][\p{L}\p{M}\p{N}]+)*/gu;
const connectorPattern = /[-._'’]/u;
const nonAsciiPattern = /\P{ASCII}/u;
const maxTermLength = 64;
const maxCachedStems = 200_000;

// "" marks a stop word. The cache is what makes indexing fast (most tokens are repeats), and it hands
// back one string object per term, so the index's later Map lookups by term skip hashing.
const stemCache = new Map<string, string>();
// Words with one stem ("removed", "removing") share one string object for it.
const canonicalStems = new Map<string, string>();

function stemOf(word: string): string {
  let stem = stemCache.get(word);
  if (stem === undefined) {
    stem = englishStopWords.has(word) ? "" : stemmer(word);
    if (stemCache.size >= maxCachedStems) {
      stemCache.clear();
      canonicalStems.clear();
    }
    const canonical = canonicalStems.get(stem);
    if (canonical === undefined) canonicalStems.set(stem, stem);
    else stem = canonical;
    stemCache.set(word, stem);
  }
  return stem;
}

function normalize(text: string): string {
  // ASCII is already in NFKC; skipping it saves most of the normalization cost on English text.
  return (nonAsciiPattern.test(text) ? text.normalize("NFKC") : text).toLowerCase();
}

function pushCompound(match: string, terms: string[]): void {
  const parts = match.split(connectorPattern);
  // English possessive ("user's" → "user"), as Lucene's EnglishPossessiveFilter does.
  const last = parts.length - 1;
  if (last > 0 && parts[last] === "s" && /['’]s$/u.test(match)) parts.pop();
  for (const part of parts) {
    if (part.length > maxTermLength) continue;
    const stem = stemOf(part);
    if (stem !== "") terms.push(stem);
  }
  if (parts.length < 2) return;
  const joined = parts.join("");
  if (joined.length > maxTermLength) return;
  const stem = stemOf(joined);
  if (stem !== "") terms.push(stem);
}

/**
 * Index terms of `text` in reading order. A compound such as `apt-get` yields its parts and then
 * its joined form (`apt`, `get`, `aptget`), so "apt get", "apt-get" and "aptget" all find it.
 */
export function analyze(text: string): string[] {
  const terms: string[] = [];
  for (const token of normalize(text).match(compoundPattern) ?? []) {
    if (connectorPattern.test(token)) {
      pushCompound(token, terms);
    } else if (token.length <= maxTermLength) {
      const stem = stemOf(token);
      if (stem !== "") terms.push(stem);
    }
  }
  return terms;
}

/** Distinct index terms of a query, each weighted by how often it occurs; [] for stop words only. */
export function analyzeQuery(query: string): WeightedTerm[] {
  const weights = new Map<string, number>();
  for (const term of analyze(query)) weights.set(term, (weights.get(term) ?? 0) + 1);
  return [...weights].map(([term, weight]) => ({ term, weight }));
}
