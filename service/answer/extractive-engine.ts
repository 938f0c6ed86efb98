/** The default answer engine: picks the sentences of retrieved passages that answer the question, never inventing text. */
import type { DetailLevel, TechnicalityLevel } from "../../sdk/core/index.ts";
import type { PassageWithSource } from "../domain.ts";
import { analyze, type WeightedTerm } from "../index/analyzer.ts";
import type { CitedSpan } from "./references.ts";

export interface RankedPassage {
  passage: PassageWithSource;
  score: number;
}

export interface ComposedClaim {
  span: CitedSpan;
  text: string;
  /** How much of what the question asks the cited text (with its heading and neighbours) covers, 0–1. */
  support: number;
}

export interface Composition {
  claims: ComposedClaim[];
  refusal: boolean;
  /** Headings of the best passages, offered in a refusal as what the sources do cover. */
  nearbyTopics: string[];
  bestSupport: number;
}

export interface EngineSettings {
  /** Below this support the answer is a refusal (calibrated on the dev QA set; see the issue notes). */
  refusalThreshold: number;
  /** Credit for a query term found in the heading or an adjacent sentence rather than the sentence itself. */
  contextCredit: number;
  /** Weight of the passage's retrieval score in a sentence's score. */
  passageWeight: number;
  /** A further claim must score at least this fraction of the best one (no padding). */
  relativeFloor: number;
}

export const defaultEngineSettings: EngineSettings = {
  refusalThreshold: 0.5,
  contextCredit: 0.35,
  passageWeight: 0.25,
  relativeFloor: 0.7,
};

const claimCounts: Record<DetailLevel, { min: number; max: number }> = {
  SUCCINCT: { min: 1, max: 2 },
  BALANCED: { min: 1, max: 4 },
  DETAILED: { min: 1, max: 8 },
};

interface Candidate {
  passageIndex: number;
  sentence: number;
  terms: Set<string>;
  coverage: number;
  support: number;
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

function overlap(a: Set<string>, b: Set<string>): number {
  let shared = 0;
  for (const term of a) if (b.has(term)) shared += 1;
  return shared / Math.max(1, Math.min(a.size, b.size));
}

export function composeAnswer(
  ranked: readonly RankedPassage[],
  query: readonly WeightedTerm[],
  idf: (term: string) => number,
  options: { detail: DetailLevel; technicality: TechnicalityLevel; settings?: EngineSettings },
): Composition {
  const settings = options.settings ?? defaultEngineSettings;
  const weights = new Map(query.map((term) => [term.term, term.weight * idf(term.term)]));
  const total = [...weights.values()].reduce((sum, weight) => sum + weight, 0);
  const nearbyTopics = [...new Set(ranked.map((item) => item.passage.heading).filter(Boolean))].slice(0, 3);
  if (total === 0 || ranked.length === 0) return { claims: [], refusal: true, nearbyTopics, bestSupport: 0 };

  const topScore = ranked[0]!.score || 1;
  const candidates: Candidate[] = [];
  ranked.forEach(({ passage, score }, passageIndex) => {
    const sentenceTerms = passage.sentences.map((sentence) => new Set(analyze(sentence.text)));
    const headingTerms = new Set(analyze(passage.heading));
    sentenceTerms.forEach((terms, sentence) => {
      let own = 0;
      let context = 0;
      for (const [term, weight] of weights) {
        if (terms.has(term)) own += weight;
        else if (
          headingTerms.has(term) ||
          sentenceTerms[sentence - 1]?.has(term) ||
          sentenceTerms[sentence + 1]?.has(term)
        ) {
          context += weight;
        }
      }
      const coverage = own / total;
      const support = Math.min(1, coverage + (settings.contextCredit * context) / total);
      const text = passage.sentences[sentence]!.text;
      candidates.push({
        passageIndex,
        sentence,
        terms,
        coverage,
        support,
        score:
          support +
          settings.passageWeight * (score / topScore) +
          technicalityBonus(text, options.technicality),
      });
    });
  });
  candidates.sort((a, b) => b.score - a.score);
  const best = candidates[0];
  if (!best || best.support < settings.refusalThreshold) {
    return { claims: [], refusal: true, nearbyTopics, bestSupport: best?.support ?? 0 };
  }

  const limits = claimCounts[options.detail];
  const chosen: Candidate[] = [best];
  for (const candidate of candidates.slice(1)) {
    if (chosen.length >= limits.max) break;
    if (
      candidate.score < settings.relativeFloor * best.score ||
      candidate.support < settings.refusalThreshold
    )
      break;
    const repeats = chosen.some(
      (other) =>
        (other.passageIndex === candidate.passageIndex &&
          Math.abs(other.sentence - candidate.sentence) <= 1) ||
        overlap(other.terms, candidate.terms) > 0.8,
    );
    if (!repeats) chosen.push(candidate);
  }

  const claims = chosen.map((candidate): ComposedClaim => {
    const passage = ranked[candidate.passageIndex]!.passage;
    // A very short sentence ("Run:") rarely stands alone; cite it with the sentence that completes it.
    const short = passage.sentences[candidate.sentence]!.text.split(/\s+/).length < 6;
    const last =
      short && candidate.sentence + 1 < passage.sentences.length
        ? candidate.sentence + 1
        : candidate.sentence;
    const sentences = passage.sentences.slice(candidate.sentence, last + 1);
    return {
      span: { passage, first: candidate.sentence, last },
      text: sentences.map((sentence) => sentence.text).join(" "),
      support: Math.round(candidate.support * 1000) / 1000,
    };
  });
  return { claims, refusal: false, nearbyTopics, bestSupport: best.support };
}

export function refusalText(nearbyTopics: readonly string[]): string {
  const base = "The sources do not cover this, so I cannot answer it without guessing.";
  if (nearbyTopics.length === 0) return base;
  return `${base} Nearby topics they do cover: ${nearbyTopics.map((topic) => topic.split(" › ").pop()).join("; ")}.`;
}
