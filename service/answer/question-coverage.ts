/**
 * How directly a text answers the question: the share of the question's weighted terms the text holds,
 * with a part of the credit for terms only its heading or neighbours hold (the extractive engine's
 * lexical measure, so the two engines' claims are scored alike).
 */
import type { WeightedTerm } from "../index/analyzer.ts";
import { analyze } from "../index/analyzer.ts";

export function questionCoverage(
  terms: readonly WeightedTerm[],
  idf: (term: string) => number,
  text: string,
  context: string,
  contextCredit: number,
): number {
  const own = new Set(analyze(text));
  const around = new Set(analyze(context));
  let total = 0;
  let held = 0;
  for (const { term, weight } of terms) {
    const weighted = weight * idf(term);
    total += weighted;
    if (own.has(term)) held += weighted;
    else if (around.has(term)) held += contextCredit * weighted;
  }
  return total === 0 ? 0 : Math.min(1, held / total);
}
