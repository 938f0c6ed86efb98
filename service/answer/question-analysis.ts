/** A question analysed once per request: its search terms (with a follow-up's topic), and the answer it expects. */
import type { WeightedTerm } from "../index/analyzer.ts";
import type { Turn } from "../store/sessions.ts";
import { type ExpectedAnswer, expectedAnswer } from "./answer-type.ts";
import { questionTerms } from "./question-terms.ts";

export interface QuestionAnalysis {
  message: string;
  terms: WeightedTerm[];
  /** The text the terms came from, kept with the turn so that a later follow-up can build on it. */
  searchText: string;
  followUp: boolean;
  expected: ExpectedAnswer;
  /** "Can I …?", "Does … support …?": the answer is a verdict. */
  yesNo: boolean;
  /** Passages the turn before cited: a follow-up favours their documents and does not repeat their claims. */
  previousCited: readonly string[];
  /** The turn before's answer text, so that a follow-up's claims do not repeat it. */
  previousAnswer: string;
}

const yesNoOpening =
  /^\s*(?:and\s+|but\s+|so\s+)?(is|are|was|were|can|could|does|do|did|should|will|would|may|might|must|has|have|had)\b/i;

export function analyzeQuestion(message: string, history: readonly Turn[]): QuestionAnalysis {
  const previous = history.at(-1);
  const question = questionTerms(message, previous?.searchQuery ?? null);
  return {
    message,
    terms: question.terms,
    searchText: question.searchText,
    followUp: question.followUp,
    expected: expectedAnswer(message),
    yesNo: yesNoOpening.test(message),
    previousCited: question.followUp && previous && !previous.refusal ? previous.passageIds : [],
    previousAnswer: question.followUp && previous && !previous.refusal ? previous.answer : "",
  };
}
