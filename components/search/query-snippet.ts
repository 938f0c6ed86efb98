/** The part of a passage a search result shows: from the sentence where the query's words first appear, with those words marked. */

export interface SnippetPart {
  text: string;
  /** Where the part starts in the snippet: a key for it. */
  start: number;
  /** One of the query's words. */
  match: boolean;
}

/** Words of the query worth marking: letters and digits, three or more of them. */
export function queryWords(query: string): string[] {
  const words = query.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? [];
  return [...new Set(words)];
}

const escapeRegExp = (word: string) => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * About `length` characters of `content`, starting at the sentence that holds the first of `words`
 * (a word matches at its start, so "upload" marks "uploads"), split into marked and plain parts.
 */
export function querySnippet(content: string, words: readonly string[], length = 320): SnippetPart[] {
  const pattern =
    words.length === 0
      ? null
      : new RegExp(`(?<![\\p{L}\\p{N}])(?:${words.map(escapeRegExp).join("|")})`, "giu");
  const first = pattern === null ? -1 : content.search(pattern);
  const stop = first <= 0 ? -1 : content.lastIndexOf(". ", first);
  const sentenceStart = stop < 0 ? 0 : stop + 2;
  const start = first - sentenceStart > length / 2 ? first : sentenceStart;
  const end = Math.min(content.length, start + length);
  const shown = `${start > 0 ? "…" : ""}${content.slice(start, end)}${end < content.length ? "…" : ""}`;
  if (pattern === null) return [{ text: shown, start: 0, match: false }];
  const parts: SnippetPart[] = [];
  let at = 0;
  for (const found of shown.matchAll(pattern)) {
    const index = found.index ?? 0;
    // The whole word the query's word starts, so the mark covers "uploads", not "upload" and an "s".
    const wordEnd = index + (/^[\p{L}\p{N}]+/u.exec(shown.slice(index))?.[0].length ?? found[0].length);
    if (index > at) parts.push({ text: shown.slice(at, index), start: at, match: false });
    parts.push({ text: shown.slice(index, wordEnd), start: index, match: true });
    at = wordEnd;
  }
  if (at < shown.length) parts.push({ text: shown.slice(at), start: at, match: false });
  return parts;
}
