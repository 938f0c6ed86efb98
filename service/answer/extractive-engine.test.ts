/** The extractive engine on passages read from real sources: what a claim cites, and nothing beside it. */
import { describe, expect, it } from "vitest";
import { buildPassages } from "../ingest/build-passages.ts";
import { readCsv } from "../ingest/text/read-delimited.ts";
import type { TextReader } from "../ingest/text/text-reader.ts";
import { expectedAnswer } from "./answer-type.ts";
import type { ComposedClaim } from "./engine.ts";
import { createExtractiveEngine } from "./extractive-engine.ts";
import { questionTerms } from "./question-terms.ts";

async function claimsFor(reader: TextReader, fileName: string, source: string, message: string) {
  const { blocks } = reader(fileName, new TextEncoder().encode(source), { datasourceUrl: null });
  const passages = buildPassages(blocks, {
    assistantId: "asst_engine",
    datasourceId: "ds_engine",
    documentId: "doc_engine",
    sha256: fileName,
    title: fileName,
  }).map((passage) => ({ passage: { ...passage, fileName }, score: 1 }));
  const claims: ComposedClaim[] = [];
  for await (const claim of createExtractiveEngine().compose({
    message,
    history: [],
    ranked: passages,
    terms: questionTerms(message, null).terms,
    idf: () => 1,
    detail: "SUCCINCT",
    technicality: "BALANCED",
    expected: expectedAnswer(message),
    vectors: null,
    rerankScores: null,
  })) {
    claims.push(claim);
  }
  return claims;
}

describe("the extractive engine", () => {
  it("cites the table row that answers, not the row after it", async () => {
    const claims = await claimsFor(
      readCsv,
      "stock.csv",
      "Item,Shelf\nAnchor chains,B7\nSignal flags,C2\nLife jackets,A1\n",
      "On which shelf are the anchor chains?",
    );
    expect(claims[0]?.text).toBe("Item: Anchor chains; Shelf: B7");
    expect(claims[0]?.span.last).toBe(claims[0]?.span.first);
  });
});
