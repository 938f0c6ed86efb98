/**
 * The eval's oracle reranker: a local Cohere-style `POST /rerank` that scores 1 exactly the sentences
 * holding one of the current dev question's answer strings, and 0 the others. The citation hit it
 * reaches is the ceiling of any reranker given the passages the service reads.
 */
import { readRerankRequest, rerankReply } from "../service/testing/model-server-replies.ts";
import {
  type ModelServerStandIn,
  startModelServerStandIn,
} from "../service/testing/model-server-stand-in.ts";
import type { QaItem } from "./eval-qa-set.ts";
import { percentile, quoteContains } from "./eval-scoring.ts";

export interface OracleReranker {
  /** The API root to give the service as CKA_RERANK_BASE_URL. */
  baseUrl: string;
  /** Sentences sent per question, and how often one of them held an answer string. */
  report(): {
    questions: number;
    candidates_per_question: { mean: number; p50: number; max: number };
    answerable_with_an_answer_sentence: number;
    unknown_queries: number;
  };
  close(): Promise<void>;
}

export async function startOracleReranker(items: readonly QaItem[]): Promise<OracleReranker> {
  const byQuestion = new Map(items.map((item) => [item.question, item]));
  const candidates = new Map<QaItem, number>();
  const answerSentenceSeen = new Set<QaItem>();
  let unknownQueries = 0;
  const standIn: ModelServerStandIn = await startModelServerStandIn((request) => {
    const { query } = readRerankRequest(request.body);
    // A follow-up's query is the question, a line break, then what it follows up.
    const item = byQuestion.get(query) ?? byQuestion.get(query.split("\n")[0] ?? "");
    if (!item) {
      unknownQueries += 1;
      return { kind: "json", status: 400, body: { error: `not a dev question: ${query.slice(0, 80)}` } };
    }
    return rerankReply(request.body, (_query, document) => {
      candidates.set(item, (candidates.get(item) ?? 0) + 1);
      const holdsAnswer = item.answer_contains.some((answer) => quoteContains(document, answer));
      if (holdsAnswer) answerSentenceSeen.add(item);
      return holdsAnswer ? 1 : 0;
    });
  });
  return {
    baseUrl: standIn.origin,
    report() {
      const counts = [...candidates.values()];
      const answerable = [...candidates.keys()].filter((item) => item.type === "answerable");
      return {
        questions: counts.length,
        candidates_per_question: {
          mean: Math.round((counts.reduce((sum, count) => sum + count, 0) / (counts.length || 1)) * 10) / 10,
          p50: percentile(counts, 0.5),
          max: Math.max(0, ...counts),
        },
        answerable_with_an_answer_sentence:
          Math.round(
            (answerable.filter((item) => answerSentenceSeen.has(item)).length / (answerable.length || 1)) *
              1000,
          ) / 1000,
        unknown_queries: unknownQueries,
      };
    },
    close: () => standIn.close(),
  };
}
