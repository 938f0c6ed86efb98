import { describe, expect, it } from "vitest";
import { buildPassages, passageWords } from "./build-passages.ts";
import type { SourceBlock, TextSourceBlock } from "./types.ts";

const source = {
  assistantId: "asst_x",
  datasourceId: "ds_x",
  documentId: "doc_x",
  sha256: "abc",
  title: "Manual",
};
const sentence = (words: number, page = 0) => ({
  text: `${Array.from({ length: words - 1 }, (_, index) => `word${index}`).join(" ")} end.`,
  spans: [
    {
      page_index: page,
      rects: [[0, 0, 10, 10] as [number, number, number, number]],
      page_width: 612,
      page_height: 792,
    },
  ],
});
const words = (text: string) => text.split(/\s+/).length;

describe("buildPassages", () => {
  it("keeps passages within the word budget and every sentence with its offsets and positions", () => {
    const blocks: SourceBlock[] = Array.from({ length: 12 }, (_, index) => ({
      headingPath: ["Intro"],
      sentences: [sentence(30, index), sentence(25, index)],
    }));
    const passages = buildPassages(blocks, source);
    expect(passages.length).toBeGreaterThan(1);
    for (const passage of passages) {
      expect(words(passage.text)).toBeLessThanOrEqual(passageWords.max);
      for (const stored of passage.sentences) {
        expect(passage.text.slice(stored.start, stored.end)).toBe(stored.text);
        expect(stored.spans).toHaveLength(1);
      }
    }
    expect(passages.flatMap((passage) => passage.sentences)).toHaveLength(24);
  });

  it("starts a new passage under a new heading and records the heading path", () => {
    const passages = buildPassages(
      [
        { headingPath: ["1 Packages"], sentences: [sentence(10)] },
        { headingPath: ["1 Packages", "1.2 Purging"], sentences: [sentence(10, 1)] },
      ],
      source,
    );
    expect(passages.map((passage) => passage.heading)).toEqual(["1 Packages", "1 Packages › 1.2 Purging"]);
    expect(passages[1]).toMatchObject({ pageStart: 1, pageEnd: 1, kind: "pdf_highlight" });
  });

  it("gives unchanged content the same passage ids", () => {
    const blocks: SourceBlock[] = [{ headingPath: ["A"], sentences: [sentence(20)] }];
    expect(buildPassages(blocks, source)[0]?.id).toBe(
      buildPassages(blocks, { ...source, documentId: "doc_y" })[0]?.id,
    );
    expect(buildPassages(blocks, source)[0]?.id).not.toBe(
      buildPassages(blocks, { ...source, sha256: "other" })[0]?.id,
    );
  });

  it("keeps each table, transcript window and record as its own passage with its evidence", () => {
    const blocks: TextSourceBlock[] = [
      {
        headingPath: [],
        sentences: [{ text: "month: Jan; sales: 3" }],
        evidence: {
          kind: "table",
          columns: ["month", "sales"],
          rows: [["Jan", "3"]],
          chartHint: { type: "bar", x: "month", y: ["sales"] },
        },
      },
      {
        headingPath: [],
        sentences: [{ text: "Hello there." }],
        evidence: { kind: "transcript_snippet", startS: 0, endS: 4 },
      },
      {
        headingPath: [],
        sentences: [{ text: "Again." }],
        evidence: { kind: "transcript_snippet", startS: 4, endS: 9 },
      },
    ];
    const passages = buildPassages(blocks, source);
    expect(passages.map((passage) => passage.kind)).toEqual([
      "table",
      "transcript_snippet",
      "transcript_snippet",
    ]);
    expect(passages[2]?.evidence).toEqual({ kind: "transcript_snippet", startS: 4, endS: 9 });
  });
});
