/** Streamed model text → complete sentences with their citation markers, however the text was chunked. */
import { matchMarkerAt, type SentenceCitation } from "./citation-markers.ts";

export interface DraftSentence {
  /** The sentence without its markers, whitespace collapsed. */
  text: string;
  citations: SentenceCitation[];
  /** Bracketed markers that did not parse (`[2]`, `[1.2.3]`). */
  malformed: number;
}

export interface SentenceSplitter {
  /** Adds streamed text; returns the sentences it completed. */
  push(text: string): DraftSentence[];
  /** The stream ended: returns what is left as a last sentence. */
  end(): DraftSentence[];
}

const terminals = ".!?";
const closers = `)"'”’»`;
// Abbreviations whose dot does not end a sentence even before a capital ("e.g. Ctrl-D").
const abbreviation = /(?:^|[\s(])(?:e\.g|i\.e|cf|vs|approx|Dr|Mr|Mrs|Ms|Fig|Sec)\.$/i;
const lowercase = /\p{Ll}/u;
const uppercase = /\p{Lu}/u;

interface MarkerGroup {
  end: number;
  citations: SentenceCitation[];
  malformed: number;
}

/** Consecutive markers from `index` (`[1.2][1.3]`, `[1.2], [1.3]`); "wait" when the text may continue the group. */
function markerGroup(buffer: string, index: number, final: boolean): MarkerGroup | "wait" | null {
  let position = index;
  const group: MarkerGroup = { end: index, citations: [], malformed: 0 };
  for (;;) {
    const marker = matchMarkerAt(buffer, position);
    if (marker === "partial") {
      if (!final) return "wait";
      break;
    }
    if (marker === null) break;
    if (marker.citations) group.citations.push(...marker.citations);
    else group.malformed += 1;
    group.end = marker.end;
    position = marker.end;
    while (position < buffer.length && /[\s,;]/.test(buffer[position]!)) position += 1;
    if (position === buffer.length && !final) return "wait";
    if (buffer[position] !== "[") break;
  }
  return group.end === index ? null : group;
}

function skip(buffer: string, index: number, characters: string): number {
  let position = index;
  while (position < buffer.length && characters.includes(buffer[position]!)) position += 1;
  return position;
}

function skipSpaces(buffer: string, index: number): number {
  let position = index;
  while (position < buffer.length && /[ \t]/.test(buffer[position]!)) position += 1;
  return position;
}

function clean(text: string): string {
  return text
    .replace(/\*\*|__/g, "")
    .replace(/\s+/g, " ")
    .replace(/\s+([.,;:!?])/g, "$1")
    .trim()
    .replace(/^(?:[-*•]|\d+[.)])\s+/, "");
}

interface Scan {
  sentence: DraftSentence;
  consumed: number;
}

/** The first complete sentence of `buffer`, or null when more text is needed to tell where it ends. */
function scanSentence(buffer: string, final: boolean): Scan | null {
  const parts: string[] = [];
  const citations: SentenceCitation[] = [];
  let malformed = 0;
  let textStart = 0;
  const finish = (textEnd: number, consumed: number): Scan => {
    parts.push(buffer.slice(textStart, textEnd));
    return { sentence: { text: clean(parts.join("")), citations, malformed }, consumed };
  };
  const take = (group: MarkerGroup, at: number) => {
    parts.push(buffer.slice(textStart, at));
    citations.push(...group.citations);
    malformed += group.malformed;
    textStart = group.end;
  };

  let index = 0;
  while (index < buffer.length) {
    const character = buffer[index]!;
    if (character === "\n") return finish(index, index + 1);
    if (character === "[") {
      const group = markerGroup(buffer, index, final);
      if (group === "wait") return null;
      if (group === null) {
        index += 1;
        continue;
      }
      take(group, index);
      // A marker ends the sentence when punctuation, a line end or a capital follows it; otherwise it is inline.
      let after = skip(buffer, group.end, terminals);
      const punctuated = after > group.end;
      after = skip(buffer, after, closers);
      const next = skipSpaces(buffer, after);
      if (next === buffer.length && !final) return null;
      if (punctuated || next === buffer.length || buffer[next] === "\n" || uppercase.test(buffer[next]!)) {
        return finish(after, next);
      }
      index = group.end;
      continue;
    }
    if (terminals.includes(character)) {
      const afterClosers = skip(buffer, skip(buffer, index + 1, terminals), closers);
      if (afterClosers === buffer.length) {
        if (!final) return null;
        return finish(afterClosers, afterClosers);
      }
      const following = buffer[afterClosers]!;
      const isBreak = /\s/.test(following) || following === "[";
      if (!isBreak || abbreviation.test(buffer.slice(Math.max(0, index - 8), index + 1))) {
        index = afterClosers;
        continue;
      }
      let next = afterClosers;
      while (next < buffer.length && /\s/.test(buffer[next]!)) next += 1;
      if (next === buffer.length && !final) return null;
      const group = next < buffer.length ? markerGroup(buffer, next, final) : null;
      if (group === "wait") return null;
      if (group !== null) {
        parts.push(buffer.slice(textStart, afterClosers));
        textStart = afterClosers;
        take(group, next);
        const end = skip(buffer, skip(buffer, group.end, terminals), closers);
        return finish(end, end);
      }
      const lineBreak = buffer.slice(afterClosers, next).includes("\n");
      if (next < buffer.length && !lineBreak && lowercase.test(buffer[next]!)) {
        index = afterClosers;
        continue;
      }
      return finish(afterClosers, next);
    }
    index += 1;
  }
  return final ? finish(buffer.length, buffer.length) : null;
}

/** Splits streamed text into sentences; a sentence is complete once the text after it shows where it ends. */
export function createSentenceSplitter(): SentenceSplitter {
  let buffer = "";
  const drain = (final: boolean): DraftSentence[] => {
    const sentences: DraftSentence[] = [];
    while (buffer.length > 0) {
      const scan = scanSentence(buffer, final);
      if (scan === null) break;
      buffer = buffer.slice(scan.consumed);
      if (scan.sentence.text !== "" || scan.sentence.citations.length > 0 || scan.sentence.malformed > 0) {
        sentences.push(scan.sentence);
      }
    }
    if (final) buffer = "";
    return sentences;
  };
  return {
    push(text) {
      buffer += text;
      return drain(false);
    },
    end: () => drain(true),
  };
}
