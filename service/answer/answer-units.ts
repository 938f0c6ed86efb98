/**
 * The units an extractive answer chooses among: a sentence alone, a sentence with its continuation (the
 * next sentence of its paragraph, the code display or list it introduces), or a list as a whole. A
 * claim cites a whole unit, so an answer that a document gives as "problem, then solution" or as a
 * lead-in and a command is cited with the part that answers.
 */
import type { StoredSentence } from "../domain.ts";

/**
 * `continued`: with the next sentence of its paragraph, which must earn its place; `introduced`: with what
 * the lead cannot be cited without (the code or list it introduces, a next sentence that leans back on it).
 */
export type UnitKind = "sentence" | "continued" | "introduced" | "list";

export interface AnswerUnit {
  /** The sentence the unit is about; the rest of the unit continues it. */
  lead: number;
  first: number;
  last: number;
  kind: UnitKind;
}

/** A list or code display longer than this is cited from its first items only. */
const maxContinuationSentences = 10;
const maxContinuationWords = 160;

/** A sentence that leans on the one before it ("This enables…", "It also…"). */
const leansBack =
  /^(this|these|that|those|it|its|they|such|thus|therefore|however|otherwise|so|also|then)\b/i;
/** A command line or code, for sentences stored before layout was recorded. */
const codeLike =
  /^([$#%>]\s|[a-z][\w.-]*\s+-{1,2}\w|[a-z][\w.-]*\s*\(|[A-Za-z_][\w.]*\s*=)|[{};|<>]|\s-{1,2}[a-z]/;
const endsSentence = /[.!?]["'”’)\]]*$/u;

/** A line that reads as code: a command, or text without the mark a sentence or a lead-in ends with. */
export function looksLikeCode(text: string): boolean {
  return codeLike.test(text) || !/[.!?:]["'”’)\]]*$/u.test(text.trim());
}

/** A sentence that announces what follows ("… as follows:", "you can run"). */
export function introduces(text: string): boolean {
  const trimmed = text.trim();
  return /:$/u.test(trimmed) || !endsSentence.test(trimmed);
}

interface Layout {
  /** What each sentence opens, or undefined when it continues the one before. */
  opens(index: number): StoredSentence["opens"];
  /** What the block a sentence belongs to is (the last thing opened at or before it). */
  within(index: number): StoredSentence["opens"];
  isCode(index: number): boolean;
  /** The layout was recorded at ingestion (rows stored earlier have none, and text is all there is). */
  recorded: boolean;
}

function layoutOf(sentences: readonly StoredSentence[]): Layout {
  const recorded = sentences.some((sentence) => sentence.opens !== undefined);
  const opened: (StoredSentence["opens"] | undefined)[] = [];
  let current: StoredSentence["opens"] = "paragraph";
  for (const sentence of sentences) {
    current = sentence.opens ?? current;
    opened.push(current);
  }
  return {
    recorded,
    opens: (index) => sentences[index]?.opens,
    within: (index) => opened[index],
    isCode: (index) => (recorded ? opened[index] === "code" : looksLikeCode(sentences[index]?.text ?? "")),
  };
}

const wordsIn = (text: string) => text.split(/\s+/).filter(Boolean).length;

/** The last sentence of the run that starts at `start` and whose sentences satisfy `belongs`, within the caps. */
function runEnd(
  sentences: readonly StoredSentence[],
  start: number,
  belongs: (index: number) => boolean,
): number {
  let end = start;
  let words = wordsIn(sentences[start]?.text ?? "");
  while (
    end + 1 < sentences.length &&
    end + 1 - start < maxContinuationSentences &&
    belongs(end + 1) &&
    words + wordsIn(sentences[end + 1]!.text) <= maxContinuationWords
  ) {
    end += 1;
    words += wordsIn(sentences[end]!.text);
  }
  return end;
}

/** Where the code display starting at `start` ends: its lines, within the caps. */
function codeEnd(sentences: readonly StoredSentence[], layout: Layout, start: number): number {
  return runEnd(
    sentences,
    start,
    (index) => layout.isCode(index) && (!layout.recorded || layout.opens(index) !== "paragraph"),
  );
}

/** Where the list starting at `start` ends: its items and their further sentences, within the caps. */
function listEnd(sentences: readonly StoredSentence[], layout: Layout, start: number): number {
  return runEnd(sentences, start, (index) => {
    const opens = layout.opens(index);
    return opens === undefined || opens === "item";
  });
}

interface Continuation {
  last: number;
  kind: Exclude<UnitKind, "sentence">;
}

/** What continues sentence `index`, or null when nothing does. */
function continuation(
  sentences: readonly StoredSentence[],
  layout: Layout,
  index: number,
): Continuation | null {
  const next = index + 1;
  if (next >= sentences.length) return null;
  const text = sentences[index]!.text;
  const nextOpens = layout.opens(next);
  // A code display belongs to the sentence that ends the paragraph before it, whatever its last mark.
  const endsParagraph = layout.recorded ? nextOpens !== undefined : true;
  if (layout.isCode(next) && !layout.isCode(index) && (introduces(text) || endsParagraph)) {
    let last = codeEnd(sentences, layout, next);
    // "you can run ⏎ tar -xzf … ⏎ to unpack it": a sentence cut by the display goes on after it.
    const after = sentences[last + 1];
    if (after && !/:$/u.test(text.trim()) && /^\p{Ll}/u.test(after.text)) last += 1;
    return { last, kind: "introduced" };
  }
  if (layout.recorded && nextOpens === "item" && introduces(text)) {
    return { last: listEnd(sentences, layout, next), kind: "list" };
  }
  const leadIn = /:$/u.test(text.trim());
  if (nextOpens === undefined || (leadIn && nextOpens === "paragraph")) {
    if (layout.isCode(index) && layout.isCode(next)) return null;
    const leaning = nextOpens === undefined && leansBack.test(sentences[next]!.text);
    // A sentence of a few words ("fakeroot simulates root privileges.") is a heading for what follows.
    const short = wordsIn(text) < 6;
    return { last: next, kind: leadIn || leaning || short ? "introduced" : "continued" };
  }
  return null;
}

/** Every unit of a passage's sentences, in sentence order. */
export function answerUnits(sentences: readonly StoredSentence[]): AnswerUnit[] {
  const layout = layoutOf(sentences);
  const units: AnswerUnit[] = [];
  const seen = new Set<string>();
  const add = (unit: AnswerUnit) => {
    const key = `${unit.first}:${unit.last}`;
    if (seen.has(key)) return;
    seen.add(key);
    units.push(unit);
  };
  sentences.forEach((sentence, index) => {
    const sameBlockAsPrevious = index > 0 && layout.opens(index) === undefined;
    const first = sameBlockAsPrevious && leansBack.test(sentence.text) ? index - 1 : index;
    const continued = continuation(sentences, layout, index);
    if (continued === null || continued.kind === "continued")
      add({ lead: index, first, last: index, kind: "sentence" });
    if (continued) add({ lead: index, first, last: continued.last, kind: continued.kind });
    // A list as a whole, from its first item.
    if (layout.opens(index) === "item" && (index === 0 || layout.within(index - 1) !== "item")) {
      const last = listEnd(sentences, layout, index);
      if (last > index) add({ lead: index, first, last, kind: "list" });
    }
  });
  return units;
}
