/**
 * `npm run eval -- --oracle`: replays the dev set in process through the engine's own steps (analysis,
 * retrieval, answer units) and says, for each answerable question, where an answer-bearing unit stood:
 * cited (`hit`), considered but not chosen (`ranking`, with its rank), in a retrieved passage but in no
 * unit (`segmentation`), or in no retrieved passage (`retrieval`).
 */
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { composeAnswer, type ScoredUnit } from "../service/answer/extractive-engine.ts";
import { analyzeQuestion } from "../service/answer/question-analysis.ts";
import { inverseDocumentFrequency, retrieve } from "../service/answer/retrieve.ts";
import { unknownNames } from "../service/answer/specific-names.ts";
import type { PassageWithSource } from "../service/domain.ts";
import { toIndexedPassage } from "../service/index/assistant-indexes.ts";
import { createBm25Index } from "../service/index/bm25-index.ts";
import { buildPassages } from "../service/ingest/build-passages.ts";
import { createPdfExtractorPool } from "../service/ingest/pdf/pool.ts";
import type { Turn } from "../service/store/sessions.ts";
import { type QaItem, quoteContains } from "./eval-scoring.ts";

export type OracleClass = "hit" | "ranking" | "segmentation" | "retrieval";

export interface OracleRow {
  id: string;
  oracle: OracleClass;
  /** 1-based rank of the first answer-bearing unit among those considered, when there is one. */
  unitRank: number | null;
}

async function readPassages(paths: readonly string[]): Promise<PassageWithSource[]> {
  const pool = createPdfExtractorPool();
  try {
    const passages: PassageWithSource[] = [];
    for (const path of paths) {
      const name = basename(path);
      const extraction = await pool.extract(new Uint8Array(readFileSync(path)), {
        ocr: true,
        onProgress() {},
      });
      const source = {
        assistantId: "oracle",
        datasourceId: "oracle",
        documentId: name,
        sha256: name,
        title: name,
      };
      passages.push(
        ...buildPassages(extraction.blocks, source).map((passage) => ({ ...passage, fileName: name })),
      );
    }
    return passages;
  } finally {
    await pool.close();
  }
}

const pagesOf = (passage: PassageWithSource, first: number, last: number) =>
  passage.sentences
    .slice(first, last + 1)
    .flatMap((sentence) => (sentence.spans ?? []).map((span) => span.page_index + 1));

function holdsAnswer(
  passage: PassageWithSource,
  first: number,
  last: number,
  text: string,
  item: QaItem,
): boolean {
  return (
    passage.fileName === item.doc &&
    pagesOf(passage, first, last).some((page) => item.pages.includes(page)) &&
    item.answer_contains.some((answer) => quoteContains(text, answer))
  );
}

export async function runOracle(items: readonly QaItem[], pdfPaths: readonly string[]): Promise<OracleRow[]> {
  const passages = await readPassages(pdfPaths);
  const byId = new Map(passages.map((passage) => [passage.id, passage]));
  const index = createBm25Index();
  index.add(passages.map(toIndexedPassage));
  const reader = {
    byIds: async (_assistant: string, ids: readonly string[]) => ids.flatMap((id) => byId.get(id) ?? []),
  };
  const turns = new Map<string, Turn>();
  const rows: OracleRow[] = [];
  for (const item of items) {
    const parent = item.follow_up_of ? turns.get(item.follow_up_of) : undefined;
    const question = analyzeQuestion(item.question, parent ? [parent] : []);
    const ranked = await retrieve(index, reader, {
      assistantId: "oracle",
      terms: question.terms,
      limit: 12,
      favour: question.previousCited,
    });
    const composition = composeAnswer(ranked, question, inverseDocumentFrequency(index), {
      detail: "BALANCED",
      technicality: "BALANCED",
    });
    const claims = unknownNames(item.question, (term) => index.documentFrequency(term)).length
      ? []
      : composition.claims;
    turns.set(item.id, {
      id: item.id,
      question: item.question,
      searchQuery: question.searchText,
      answer: claims.map((claim) => claim.text).join(" "),
      refusal: claims.length === 0,
      passageIds: claims.map((claim) => claim.span.passage.id),
    });
    if (item.type !== "answerable") continue;
    const bears = (unit: ScoredUnit) =>
      holdsAnswer(ranked[unit.passageIndex]!.passage, unit.first, unit.last, unit.text, item);
    const rank = composition.considered.findIndex(bears);
    const cited = claims.some((claim) =>
      holdsAnswer(claim.span.passage, claim.span.first, claim.span.last, claim.text, item),
    );
    const retrieved = ranked.some(({ passage }) =>
      holdsAnswer(passage, 0, passage.sentences.length - 1, passage.text, item),
    );
    const oracle: OracleClass = cited
      ? "hit"
      : rank >= 0
        ? "ranking"
        : retrieved
          ? "segmentation"
          : "retrieval";
    rows.push({ id: item.id, oracle, unitRank: rank >= 0 ? rank + 1 : null });
  }
  return rows;
}

export function oracleCounts(rows: readonly OracleRow[]): Record<OracleClass, number> {
  const counts: Record<OracleClass, number> = { hit: 0, ranking: 0, segmentation: 0, retrieval: 0 };
  for (const row of rows) counts[row.oracle] += 1;
  return counts;
}
