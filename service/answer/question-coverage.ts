/**
 * How much of what the question asks a text holds: the question's terms weighted by rarity, the weight a
 * text holds itself, and the weight held only around it (its heading, its neighbours). The extractive
 * engine ranks sentences by it, and the LLM engine scores its claims' relevance the same way.
 */
import { analyze, type WeightedTerm } from "../index/analyzer.ts";

export interface QuestionWeights {
  weights: ReadonlyMap<string, number>;
  total: number;
}

export function questionWeights(
  terms: readonly WeightedTerm[],
  idf: (term: string) => number,
): QuestionWeights {
  const weights = new Map(terms.map((term) => [term.term, term.weight * idf(term.term)]));
  return { weights, total: [...weights.values()].reduce((sum, weight) => sum + weight, 0) };
}

/** The question's weight `own` holds, and the weight only `around` holds. */
export function heldWeight(
  weights: ReadonlyMap<string, number>,
  own: ReadonlySet<string>,
  around: ReadonlySet<string>,
): { own: number; around: number } {
  let held = 0;
  let nearby = 0;
  for (const [term, weight] of weights) {
    if (own.has(term)) held += weight;
    else if (around.has(term)) nearby += weight;
  }
  return { own: held, around: nearby };
}

/** The lexical measure, 0–1: the share held, with `contextCredit` of the share held only around. */
export function lexicalSupport(
  held: { own: number; around: number },
  total: number,
  contextCredit: number,
): number {
  return Math.min(1, held.own / total + (contextCredit * held.around) / total);
}

/** How directly `text` (under `context`) answers the question, 0–1. */
export function questionCoverage(
  terms: readonly WeightedTerm[],
  idf: (term: string) => number,
  text: string,
  context: string,
  contextCredit: number,
): number {
  const { weights, total } = questionWeights(terms, idf);
  if (total === 0) return 0;
  const held = heldWeight(weights, new Set(analyze(text)), new Set(analyze(context)));
  return lexicalSupport(held, total, contextCredit);
}
