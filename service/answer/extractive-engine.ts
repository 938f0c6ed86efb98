/** The default answer engine: picks the sentences of retrieved passages that answer the question, never inventing text. */
import type { DetailLevel, TechnicalityLevel } from "../../sdk/core/index.ts";
import { analyze } from "../index/analyzer.ts";
import { gives, satisfies } from "./answer-type.ts";
import { type AnswerUnit, answerUnits } from "./answer-units.ts";
import type { AnswerEngine, ComposedClaim, RankedPassage } from "./engine.ts";
import type { QuestionAnalysis } from "./question-analysis.ts";

export interface Composition {
  claims: ComposedClaim[];
  refusal: boolean;
  bestSupport: number;
  /** Every unit considered, best first (for the evaluation's ceiling report). */
  considered: ScoredUnit[];
}

export interface EngineSettings {
  /** Below this support the answer is a refusal (calibrated on the dev QA set; see the issue notes). */
  refusalThreshold: number;
  /** Credit for a query term found in the heading or elsewhere in the passage rather than the unit itself. */
  contextCredit: number;
  /** Weight of the passage's retrieval score in a unit's score. */
  passageWeight: number;
  /** A further claim must score at least this fraction of the best one. */
  relativeFloor: number;
  /** Credit for a unit that holds the kind of answer asked for (a command, a number, a date, a verdict). */
  answerCredit: number;
  /** Cost of a lead's plain continuation (the next sentence of its paragraph), which must earn its place. */
  sentenceCost: number;
  /** A further claim must cover at least this share of the question's weight that earlier claims leave. */
  newCoverage: number;
}

export const defaultEngineSettings: EngineSettings = {
  refusalThreshold: 0.25,
  contextCredit: 0.35,
  passageWeight: 0.25,
  relativeFloor: 0.7,
  answerCredit: 0.05,
  sentenceCost: 0.04,
  newCoverage: 0.25,
};

const claimCounts: Record<DetailLevel, { min: number; max: number }> = {
  SUCCINCT: { min: 1, max: 2 },
  BALANCED: { min: 1, max: 4 },
  DETAILED: { min: 1, max: 8 },
};

export interface ScoredUnit extends AnswerUnit {
  passageIndex: number;
  terms: Set<string>;
  text: string;
  support: number;
  /** The unit holds the kind of answer asked for (a command, a number, a date, a verdict). */
  answers: boolean;
  score: number;
}

const technicalPattern = /(^|\s)(-{1,2}[a-z]|\/[a-z]+\/|[a-z]+\.[a-z]{2,4}\b|\$ |#|\d)/i;

function technicalityBonus(text: string, level: TechnicalityLevel): number {
  const technical = technicalPattern.test(text);
  const words = text.split(/\s+/).length;
  if (level === "TECHNICAL") return technical ? 0.05 : 0;
  if (level === "SIMPLE") return (technical ? -0.05 : 0.02) + (words <= 25 ? 0.02 : 0);
  return 0;
}

const collapse = (text: string) => text.replace(/\s+/g, " ").trim();

/** Scores every unit of every ranked passage against the question. */
export function scoreUnits(
  ranked: readonly RankedPassage[],
  question: QuestionAnalysis,
  idf: (term: string) => number,
  technicality: TechnicalityLevel,
  settings: EngineSettings = defaultEngineSettings,
): ScoredUnit[] {
  const weights = new Map(question.terms.map((term) => [term.term, term.weight * idf(term.term)]));
  const total = [...weights.values()].reduce((sum, weight) => sum + weight, 0);
  if (total === 0 || ranked.length === 0) return [];
  const topScore = ranked[0]!.score || 1;
  const scored: ScoredUnit[] = [];
  ranked.forEach(({ passage, score }, passageIndex) => {
    const sentenceTerms = passage.sentences.map((sentence) => new Set(analyze(sentence.text)));
    const contextTerms = new Set([
      ...analyze(passage.heading),
      ...sentenceTerms.flatMap((terms) => [...terms]),
    ]);
    for (const unit of answerUnits(passage.sentences)) {
      const terms = new Set(sentenceTerms.slice(unit.first, unit.last + 1).flatMap((set) => [...set]));
      let own = 0;
      let context = 0;
      for (const [term, weight] of weights) {
        if (terms.has(term)) own += weight;
        else if (contextTerms.has(term)) context += weight;
      }
      const text = passage.sentences
        .slice(unit.first, unit.last + 1)
        .map((sentence) => sentence.text)
        .join(" ");
      // A date or quantity question is not answered by a unit that holds none.
      const typeFactor = satisfies(text, question.expected) ? 1 : 0.5;
      const support = typeFactor * Math.min(1, (own + settings.contextCredit * context) / total);
      const answers = gives(text, question.expected, question.yesNo);

      scored.push({
        ...unit,
        passageIndex,
        terms,
        text,
        support,
        answers,
        score:
          support +
          (answers ? settings.answerCredit : 0) -
          (unit.kind === "continued" ? settings.sentenceCost : 0) +
          settings.passageWeight * (score / topScore) +
          technicalityBonus(text, technicality),
      });
    }
  });
  return scored.sort((a, b) => b.score - a.score);
}

function overlaps(a: ScoredUnit, b: ScoredUnit): boolean {
  return a.passageIndex === b.passageIndex && a.first <= b.last && b.first <= a.last;
}

export function composeAnswer(
  ranked: readonly RankedPassage[],
  question: QuestionAnalysis,
  idf: (term: string) => number,
  options: { detail: DetailLevel; technicality: TechnicalityLevel; settings?: EngineSettings },
): Composition {
  const settings = options.settings ?? defaultEngineSettings;
  const previousAnswer = collapse(question.previousAnswer);
  const repeated = (unit: ScoredUnit) =>
    previousAnswer !== "" &&
    previousAnswer.includes(collapse(ranked[unit.passageIndex]!.passage.sentences[unit.lead]!.text));
  const considered = scoreUnits(ranked, question, idf, options.technicality, settings);
  const best = considered[0];
  if (!best || best.support < settings.refusalThreshold) {
    return { claims: [], refusal: true, bestSupport: best?.support ?? 0, considered };
  }

  const weights = new Map(question.terms.map((term) => [term.term, term.weight * idf(term.term)]));
  const total = [...weights.values()].reduce((sum, weight) => sum + weight, 0);
  const covered = new Set(best.terms);
  const limits = claimCounts[options.detail];
  const chosen: ScoredUnit[] = [best];
  // The best unit may be one the turn before cited (it can answer the follow-up too); further claims
  // never repeat that turn's claims.
  for (const candidate of considered.slice(1)) {
    if (chosen.length >= limits.max) break;
    if (
      candidate.score < settings.relativeFloor * best.score ||
      candidate.support < settings.refusalThreshold
    )
      break;
    if (repeated(candidate) || chosen.some((other) => overlaps(other, candidate))) continue;
    // A further claim must answer a part of the question the earlier ones leave open, or give the kind
    // of answer asked for when they do not.
    let added = 0;
    for (const [term, weight] of weights)
      if (candidate.terms.has(term) && !covered.has(term)) added += weight;
    const answersFirst = candidate.answers && !chosen.some((other) => other.answers);
    if (added < settings.newCoverage * total && !answersFirst) continue;
    chosen.push(candidate);
    for (const term of candidate.terms) covered.add(term);
  }

  const claims = chosen.map((unit): ComposedClaim => {
    const passage = ranked[unit.passageIndex]!.passage;
    return {
      span: { passage, first: unit.first, last: unit.last },
      text: unit.text,
      support: Math.round(unit.support * 1000) / 1000,
    };
  });
  return { claims, refusal: false, bestSupport: best.support, considered };
}

/** The default engine: extractive, so it cannot state anything the sources do not say. */
export function createExtractiveEngine(settings: EngineSettings = defaultEngineSettings): AnswerEngine {
  return {
    name: "extractive",
    async *compose(request) {
      const composition = composeAnswer(request.ranked, request.question, request.idf, {
        detail: request.detail,
        technicality: request.technicality,
        settings,
      });
      yield* composition.claims;
    },
  };
}

/** Headings of the best passages, offered in a refusal as what the sources do cover. */
export function nearbyTopics(ranked: readonly RankedPassage[]): string[] {
  return [...new Set(ranked.map((item) => item.passage.heading).filter(Boolean))].slice(0, 3);
}

export function refusalText(nearbyTopics: readonly string[], unknownNames: readonly string[] = []): string {
  const base = unknownNames.length
    ? `The sources do not mention ${unknownNames.join(" or ")}, so I cannot answer this without guessing.`
    : "The sources do not cover this, so I cannot answer it without guessing.";
  if (nearbyTopics.length === 0) return base;
  return `${base} Nearby topics they do cover: ${nearbyTopics.map((topic) => topic.split(" › ").pop()).join("; ")}.`;
}
