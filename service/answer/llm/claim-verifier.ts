/** Checks a model's sentence against the passage sentences it cites; only a supported sentence becomes a claim. */
import { analyze } from "../../index/analyzer.ts";
import type { ComposedClaim } from "../engine.ts";
import type { CitedSpan } from "../references.ts";
import type { PromptPassage } from "./prompt.ts";
import type { DraftSentence } from "./sentence-splitter.ts";

export type DropReason = "uncited" | "invalid_citation" | "unsupported" | "meta";

/** A verified claim; how directly it answers the question is the engine's to add. */
export type VerifiedClaim = Omit<ComposedClaim, "relevance">;

export type Verdict =
  | { kind: "supported"; claim: VerifiedClaim }
  | { kind: "dropped"; reason: DropReason; support: number };

export interface VerifierSettings {
  /** Least idf-weighted share of the sentence's terms the cited text must hold. */
  minSupport: number;
  /** A clause needs this many distinct terms before it is judged on its own. */
  minClauseTerms: number;
}

export const defaultVerifierSettings: VerifierSettings = { minSupport: 0.6, minClauseTerms: 2 };

// Clauses joined by a conjunction are checked one by one, so an invented clause cannot hide behind a
// well-supported one ("…, and it also formats your disk").
const clauseBreak =
  /[;:]\s+|,\s+(?=(?:and|but|while|which|whereas|although|so|yet|or)\b)|\s+(?:and|but)\s+(?=(?:it|this|that|they|you|also|then)\b)/i;
// A sentence about the sources rather than from them ("The passages do not say…").
const metaStatement =
  /\b(?:the|these|those|provided|given)\s+(?:passages?|sources?|context|excerpts?)\b(?!\.\w|-)/i;
const wordPattern = /[\p{L}\p{M}\p{N}]+/gu;
const hasDigit = /\d/;

/** The index terms of `text`, plus the stem of each pair of adjacent words written together ("command line" → "commandlin"). */
function evidenceTerms(text: string): Set<string> {
  const terms = new Set(analyze(text));
  const words = text.toLowerCase().match(wordPattern) ?? [];
  for (let index = 0; index + 1 < words.length; index += 1) {
    for (const term of analyze(words[index]! + words[index + 1]!)) terms.add(term);
  }
  return terms;
}

/** Terms of `text` found in `evidence`, counting two adjacent words as found when the evidence writes them as one. */
function coveredTerms(
  text: string,
  evidence: ReadonlySet<string>,
): { terms: Set<string>; covered: Set<string> } {
  const terms = new Set(analyze(text));
  const covered = new Set([...terms].filter((term) => evidence.has(term)));
  const words = text.toLowerCase().match(wordPattern) ?? [];
  for (let index = 0; index + 1 < words.length; index += 1) {
    const joined = analyze(words[index]! + words[index + 1]!);
    if (joined.length === 1 && evidence.has(joined[0]!)) {
      for (const term of analyze(`${words[index]} ${words[index + 1]}`)) covered.add(term);
    }
  }
  return { terms, covered };
}

function weightedShare(terms: Set<string>, covered: Set<string>, idf: (term: string) => number): number {
  let total = 0;
  let found = 0;
  for (const term of terms) {
    const weight = idf(term);
    total += weight;
    if (covered.has(term)) found += weight;
  }
  return total === 0 ? 0 : found / total;
}

/**
 * How well `evidence` backs `text`, 0–1: the idf-weighted share of the text's terms the evidence holds,
 * lowered to its worst clause's share; 0 when a number or version in the text is missing from the evidence.
 */
export function supportOf(
  text: string,
  evidence: string,
  idf: (term: string) => number,
  settings: VerifierSettings = defaultVerifierSettings,
): number {
  const evidenceSet = evidenceTerms(evidence);
  const whole = coveredTerms(text, evidenceSet);
  const numbers = (text.match(wordPattern) ?? [])
    .filter((word) => hasDigit.test(word))
    .flatMap((word) => analyze(word));
  if (numbers.some((term) => !whole.covered.has(term))) return 0;
  let support = weightedShare(whole.terms, whole.covered, idf);
  for (const clause of text.split(clauseBreak)) {
    const part = coveredTerms(clause, evidenceSet);
    if (part.terms.size >= settings.minClauseTerms) {
      support = Math.min(support, weightedShare(part.terms, part.covered, idf));
    }
  }
  return support;
}

/** The cited sentences of each passage, as one span per passage (first to last cited sentence). */
function citedSpans(draft: DraftSentence, passages: readonly PromptPassage[]): CitedSpan[] | null {
  const spans = new Map<number, CitedSpan>();
  for (const citation of draft.citations) {
    const shown = passages[citation.passage - 1];
    if (!shown || citation.first < 1 || citation.first > citation.last || citation.last > shown.sentenceCount)
      return null;
    const existing = spans.get(citation.passage);
    spans.set(citation.passage, {
      passage: shown.passage,
      first: Math.min(existing?.first ?? Number.POSITIVE_INFINITY, citation.first - 1),
      last: Math.max(existing?.last ?? -1, citation.last - 1),
    });
  }
  return [...spans.values()];
}

function spanEvidence(span: CitedSpan): string {
  const sentences = span.passage.sentences.slice(span.first, span.last + 1).map((sentence) => sentence.text);
  return [span.passage.heading, ...sentences].join("\n");
}

/**
 * Judges one model sentence. Every marker must name a shown passage sentence; the claim cites the span
 * that supports it best (one reference per claim), and that span alone must reach `minSupport`.
 */
export function verifyClaim(
  draft: DraftSentence,
  passages: readonly PromptPassage[],
  idf: (term: string) => number,
  settings: VerifierSettings = defaultVerifierSettings,
): Verdict {
  if (draft.malformed > 0) return { kind: "dropped", reason: "invalid_citation", support: 0 };
  if (draft.citations.length === 0) return { kind: "dropped", reason: "uncited", support: 0 };
  const spans = citedSpans(draft, passages);
  if (spans === null) return { kind: "dropped", reason: "invalid_citation", support: 0 };
  if (metaStatement.test(draft.text)) return { kind: "dropped", reason: "meta", support: 0 };
  let best: { span: CitedSpan; support: number } | null = null;
  for (const span of spans) {
    const support = supportOf(draft.text, spanEvidence(span), idf, settings);
    if (best === null || support > best.support) best = { span, support };
  }
  const support = Math.round((best?.support ?? 0) * 1000) / 1000;
  if (best === null || support < settings.minSupport)
    return { kind: "dropped", reason: "unsupported", support };
  const quoted = best.span.passage.sentences
    .slice(best.span.first, best.span.last + 1)
    .map((sentence) => sentence.text)
    .join(" ");
  return {
    kind: "supported",
    claim: { span: best.span, text: draft.text, support, verbatim: draft.text === quoted },
  };
}
