/** The default answer engine: picks the sentences of retrieved passages that answer the question, never inventing text. */
import type { DetailLevel, TechnicalityLevel } from "../../sdk/core/wire.ts";
import { analyze, type WeightedTerm } from "../index/analyzer.ts";
import { dot } from "../index/vector-codec.ts";
import { type ExpectedAnswer, satisfies } from "./answer-type.ts";
import {
  type AnswerEngine,
  type ComposedClaim,
  type QuestionVectors,
  type RankedPassage,
  sentenceKey,
} from "./engine.ts";
import { heldWeight, lexicalSupport, questionWeights } from "./question-coverage.ts";

export interface Composition {
  claims: ComposedClaim[];
  refusal: boolean;
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
  /** Weight of the cosine between the question and the sentence (when a model is loaded). */
  semanticWeight: number;
  /** Cosines mapped to support 0 and 1: a sentence that says what was asked in other words supports it. */
  semanticSupport: { none: number; full: number };
  /** Weight of the reranker's score, scaled to 0–1 among the question's sentences. */
  rerankWeight: number;
  /**
   * Raw rerank scores mapped to support 0 and 1, or null (the default) for a reranker that ranks only:
   * every model calibrates its scores its own way, and none could be measured here, so by default
   * support (and refusal) stays with the signals the threshold was calibrated on.
   */
  rerankSupport: { none: number; full: number } | null;
}

export const defaultEngineSettings: EngineSettings = {
  refusalThreshold: 0.25,
  contextCredit: 0.35,
  passageWeight: 0.25,
  relativeFloor: 0.7,
  // Fitted on the dev set's odd half with the embedded model (see the eval's halves).
  semanticWeight: 0.5,
  semanticSupport: { none: 0.4, full: 0.8 },
  // Above the other signals' whole spread (support, passage and cosine add up to ~1.75), so a reranker
  // decides the order wherever it tells sentences apart.
  rerankWeight: 2,
  rerankSupport: null,
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
  /** The score without the reranker's part. */
  baseScore: number;
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

/**
 * What the reranker's scores add to a sentence. For ranking, they are mapped to 0–1 by the question's
 * lowest and highest (raw scores may be logits or probabilities): all equal says nothing, so all 0, and
 * a sentence the reranker left out scores its lowest. For support, raw scores go through
 * `rerankSupport` when one is set.
 */
function rerankSignals(
  scores: ReadonlyMap<string, number> | null | undefined,
  settings: Pick<EngineSettings, "rerankSupport">,
): { ranking(key: string): number; support(key: string): number } {
  const raw = (key: string) => {
    const score = scores?.get(key);
    return score !== undefined && Number.isFinite(score) ? score : null;
  };
  const finite = [...(scores?.values() ?? [])].filter(Number.isFinite);
  const low = Math.min(...finite);
  const spread = Math.max(...finite) - low;
  const mapping = settings.rerankSupport;
  return {
    ranking: (key) => (spread > 0 ? ((raw(key) ?? low) - low) / spread : 0),
    support(key) {
      const score = raw(key);
      if (!mapping || score === null) return 0;
      return Math.min(1, Math.max(0, (score - mapping.none) / (mapping.full - mapping.none)));
    },
  };
}

function overlap(a: Set<string>, b: Set<string>): number {
  let shared = 0;
  for (const term of a) if (b.has(term)) shared += 1;
  return shared / Math.max(1, Math.min(a.size, b.size));
}

function composeAnswer(
  ranked: readonly RankedPassage[],
  query: readonly WeightedTerm[],
  idf: (term: string) => number,
  options: {
    detail: DetailLevel;
    technicality: TechnicalityLevel;
    expected?: ExpectedAnswer;
    settings?: EngineSettings;
    vectors?: QuestionVectors | null;
    rerankScores?: ReadonlyMap<string, number> | null;
  },
): Composition {
  const settings = options.settings ?? defaultEngineSettings;
  const rerank = rerankSignals(options.rerankScores, settings);
  const { weights, total } = questionWeights(query, idf);
  if (total === 0 || ranked.length === 0) return { claims: [], refusal: true, bestSupport: 0 };

  const topScore = ranked[0]!.score || 1;
  const candidates: Candidate[] = [];
  ranked.forEach(({ passage, score }, passageIndex) => {
    const sentenceTerms = passage.sentences.map((sentence) => new Set(analyze(sentence.text)));
    // A sentence's heading and neighbours: the terms of the heading and of the whole passage.
    const around = new Set([...analyze(passage.heading), ...sentenceTerms.flatMap((terms) => [...terms])]);
    sentenceTerms.forEach((terms, sentence) => {
      const held = heldWeight(weights, terms, around);
      const coverage = held.own / total;
      const sentenceVector = options.vectors?.passages.get(passage.id)?.[sentence + 1];
      const cosine = sentenceVector && options.vectors ? dot(options.vectors.question, sentenceVector) : 0;
      const { none, full } = settings.semanticSupport;
      const semanticSupport = sentenceVector ? Math.min(1, Math.max(0, (cosine - none) / (full - none))) : 0;
      const text = passage.sentences[sentence]!.text;
      const withNext = `${text} ${passage.sentences[sentence + 1]?.text ?? ""}`;
      // A date or quantity question is not answered by a sentence that holds none.
      const typeFactor = satisfies(withNext, options.expected ?? null) ? 1 : 0.5;
      const lexical = lexicalSupport(held, total, settings.contextCredit);
      const key = sentenceKey(passage.id, sentence);
      const support = typeFactor * Math.max(lexical, semanticSupport, rerank.support(key));
      const baseScore =
        support +
        settings.passageWeight * (score / topScore) +
        settings.semanticWeight * cosine +
        technicalityBonus(text, options.technicality);
      candidates.push({
        passageIndex,
        sentence,
        terms,
        coverage,
        support,
        baseScore,
        score: baseScore + settings.rerankWeight * rerank.ranking(key),
      });
    });
  });
  candidates.sort((a, b) => b.score - a.score);
  // A reranker that only ranks does not decide whether the question is answered: that is decided as
  // without it, and it then orders the sentences with support (one it ranks first may have none).
  const reranked = Boolean(options.rerankScores);
  const gate =
    reranked && !settings.rerankSupport
      ? candidates.reduce<Candidate | undefined>(
          (top, candidate) => (top && top.baseScore >= candidate.baseScore ? top : candidate),
          undefined,
        )
      : candidates[0];
  if (!gate || gate.support < settings.refusalThreshold) {
    return { claims: [], refusal: true, bestSupport: gate?.support ?? 0 };
  }
  const eligible = reranked
    ? candidates.filter((candidate) => candidate.support >= settings.refusalThreshold)
    : candidates;
  const best = eligible[0]!;

  const limits = claimCounts[options.detail];
  const chosen: Candidate[] = [best];
  for (const candidate of eligible.slice(1)) {
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
    // A table's row is a record complete in itself: it neither leans on the row before nor introduces the next.
    const { first, last } =
      passage.evidence.kind === "table"
        ? { first: candidate.sentence, last: candidate.sentence }
        : claimSpan(
            passage.sentences.map((sentence) => sentence.text),
            candidate.sentence,
          );
    const sentences = passage.sentences.slice(first, last + 1);
    return {
      span: { passage, first, last },
      text: sentences.map((sentence) => sentence.text).join(" "),
      // A quote is backed by its source completely; what varies is how directly it answers.
      support: 1,
      relevance: Math.round(candidate.support * 1000) / 1000,
      verbatim: true,
    };
  });
  return { claims, refusal: false, bestSupport: best.support };
}

/** The default engine: extractive, so it cannot state anything the sources do not say. */
export function createExtractiveEngine(settings: EngineSettings = defaultEngineSettings): AnswerEngine {
  return {
    name: "extractive",
    async *compose(request) {
      const composition = composeAnswer(request.ranked, request.terms, request.idf, {
        detail: request.detail,
        technicality: request.technicality,
        expected: request.expected,
        settings,
        vectors: request.vectors,
        rerankScores: request.rerankScores,
      });
      yield* composition.claims;
    },
  };
}

/** A sentence that leans on the one before it ("This enables…", "It also…"). */
const leansBack =
  /^(this|these|that|those|it|its|they|such|thus|therefore|however|otherwise|so|also|then)\b/i;
/** A command line or code shown after a lead-in sentence. */
const codeLike =
  /^([$#%>]\s|[a-z][\w.-]*\s+-{1,2}\w|[a-z][\w.-]*\s*\(|[A-Za-z_][\w.]*\s*=)|[{};|<>]|\s-{1,2}[a-z]/;

function looksLikeCode(text: string): boolean {
  return codeLike.test(text) || !/[.!?”"')]$/.test(text.trim());
}

/**
 * The sentences a claim cites around the best-matching one: the sentence it leans back on, and the
 * command or continuation that a lead-in ("…from the commandline:", a very short sentence) introduces.
 */
function claimSpan(texts: readonly string[], index: number): { first: number; last: number } {
  const current = texts[index]!;
  const first = index > 0 && leansBack.test(current) ? index - 1 : index;
  let last = index;
  const next = texts[index + 1];
  const introduces = /:\s*$/.test(current) || current.split(/\s+/).length < 6;
  if (next !== undefined && (introduces || looksLikeCode(next))) {
    last = index + 1;
    const after = texts[index + 2];
    if (after !== undefined && looksLikeCode(next) && looksLikeCode(after)) last = index + 2;
  }
  return { first, last };
}

/** Documents a refusal names as what the sources cover; more are counted. */
const namedDocuments = 5;

/**
 * A refusal, with what the sources do cover: the assistant's documents, the same for every question
 * (headings near an off-topic question were often as off-topic as it).
 */
export function refusalText(documents: readonly string[], unknownNames: readonly string[] = []): string {
  const base = unknownNames.length
    ? `The sources do not mention ${unknownNames.join(" or ")}, so I cannot answer this without guessing.`
    : "The sources do not cover this, so I cannot answer it without guessing.";
  if (documents.length === 0) return base;
  const named = documents.slice(0, namedDocuments).join("; ");
  const more = documents.length - namedDocuments;
  return `${base} The sources cover: ${named}${more > 0 ? ` and ${more} more documents` : ""}.`;
}
