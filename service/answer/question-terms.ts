/** What a question asks about, as weighted index terms: question words dropped, follow-ups blended with the last turn. */
import { analyze, analyzeQuery, type WeightedTerm } from "../index/analyzer.ts";

/** Words that shape a question but never name its topic; they would only add noise to ranking. */
const questionWords = new Set(
  analyze(
    "what which who whom whose why how when where do does did doing done can could should would will shall may might must " +
      "i me my mine myself you your yours we us our ours he she him her his one ones someone something anything " +
      "need want way ways tell explain please give know also just actually really instead otherwise else about " +
      "get got make sure command commands option options program tool utility step steps",
  ),
);

const followUpCue =
  /^\s*(and|but|also|so|then|what about|how about|what if|ok(ay)?|now)\b|\b(it|its|that|this|those|these|them|they|there|instead|same|one|former|latter|again|back)\b/i;

export interface QuestionTerms {
  terms: WeightedTerm[];
  /** The text the terms came from, kept with the turn so a later follow-up can build on it. */
  searchText: string;
  followUp: boolean;
}

export function topicTerms(text: string): WeightedTerm[] {
  const terms = analyzeQuery(text);
  const topical = terms.filter((term) => !questionWords.has(term.term));
  return topical.length > 0 ? topical : terms;
}

/**
 * A follow-up ("And how do I undo it?") keeps its own terms at full weight and borrows the previous
 * turn's topic at a lower weight, so the earlier subject steers retrieval without drowning the new ask.
 */
export function questionTerms(
  message: string,
  previousSearchText: string | null,
  borrowedWeight = 0.5,
): QuestionTerms {
  const own = topicTerms(message);
  const followUp = previousSearchText !== null && (followUpCue.test(message) || own.length <= 2);
  if (!followUp) return { terms: own, searchText: message, followUp: false };
  const merged = new Map(own.map((term) => [term.term, term.weight]));
  for (const term of topicTerms(previousSearchText)) {
    if (!merged.has(term.term)) merged.set(term.term, term.weight * borrowedWeight);
  }
  return {
    terms: [...merged].map(([term, weight]) => ({ term, weight })),
    searchText: `${message}\n${previousSearchText}`,
    followUp: true,
  };
}
