/** What an answer engine is: passages and a question in, verified claims out (none means a refusal). */
import type { DetailLevel, TechnicalityLevel } from "../../sdk/core/wire.ts";
import type { PassageWithSource } from "../domain.ts";
import type { WeightedTerm } from "../index/analyzer.ts";
import type { QuantizedVector } from "../index/vector-codec.ts";
import type { Turn } from "../store/sessions.ts";
import type { ExpectedAnswer } from "./answer-type.ts";
import type { CitedSpan } from "./references.ts";

export interface RankedPassage {
  passage: PassageWithSource;
  score: number;
}

export interface ComposedClaim {
  span: CitedSpan;
  text: string;
  /** How well the cited text backs the claim's text, 0–1: 1 for a quote. */
  support: number;
  /** How directly the claim answers the question, 0–1. */
  relevance: number;
  /** The claim's text is the cited text, word for word. */
  verbatim: boolean;
}

/** The question's vector and, per passage id, the passage's vector followed by its sentences'. */
export interface QuestionVectors {
  question: Float32Array;
  passages: ReadonlyMap<string, readonly QuantizedVector[]>;
}

/** The key of a sentence in `EngineRequest.rerankScores`: its passage and its position there. */
export function sentenceKey(passageId: string, sentenceIndex: number): string {
  return `${passageId}:${sentenceIndex}`;
}

export interface EngineRequest {
  message: string;
  /** Earlier turns of the session, oldest first. */
  history: readonly Turn[];
  ranked: readonly RankedPassage[];
  terms: readonly WeightedTerm[];
  idf: (term: string) => number;
  detail: DetailLevel;
  technicality: TechnicalityLevel;
  expected: ExpectedAnswer;
  /** Present when a model is loaded and the passages have vectors. */
  vectors: QuestionVectors | null;
  /** A reranker's raw score per sentence of the ranked passages (see `sentenceKey`); null without one. */
  rerankScores: ReadonlyMap<string, number> | null;
  signal?: AbortSignal;
}

export interface AnswerEngine {
  readonly name: string;
  /** Claims in answer order, each already checked against the passage it cites. */
  compose(request: EngineRequest): AsyncIterable<ComposedClaim>;
}
