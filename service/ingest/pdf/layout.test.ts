import { describe, expect, it } from "vitest";
import type { PdfExtraction } from "../types.ts";
import { extractPdf } from "./extract-pdf.ts";
import { makeTextPdf, makeTwoColumnPdf, type PlacedText } from "./testing/pdf-fixtures.ts";

const sentencesOf = (result: PdfExtraction): string[] =>
  result.blocks.flatMap((block) => block.sentences.map((sentence) => sentence.text));

/** Body lines of 11 pt text with 13.2 pt leading, starting at `top`. */
function paragraph(lines: readonly string[], top: number, x = 72): PlacedText[] {
  return lines.map((text, index) => ({ x, y: top - index * 13.2, size: 11, text }));
}

describe("layout of generated PDFs", () => {
  it("reads a two-column page column by column even when the stream alternates between them", async () => {
    const left = [
      "Columns are read one after the other, so a",
      "sentence that wraps in the left column stays",
      "whole. Words split at a line end are joined",
      "again, like the word extrac-",
      "tion, while an option such as --no-",
      "check keeps its hyphen and a well-",
      "Known name keeps it too. The left column",
      "ends with this sentence about the columns.",
    ];
    const right = [
      "The right column starts here and it is read",
      "only after the left column has been read to",
      "the end. Nothing from the right side should",
      "ever show up inside a sentence of the left",
      "column, and the other way round, because a",
      "reader would be confused by mixed up lines",
      "in the middle of one of the cited sentences.",
      "This is the last line of the right column.",
    ];
    const result = await extractPdf(makeTwoColumnPdf(left, right, "Two column layout"), { ocr: false });
    const texts = result.blocks.flatMap((block) => block.sentences.map((sentence) => sentence.text));
    expect(texts).toContain(
      "Columns are read one after the other, so a sentence that wraps in the left column stays whole.",
    );
    expect(texts).toContain(
      "Words split at a line end are joined again, like the word extraction, while an option such as --no-check keeps its hyphen and a well- Known name keeps it too.",
    );
    expect(texts).toContain(
      "Nothing from the right side should ever show up inside a sentence of the left column, and the other way round, because a reader would be confused by mixed up lines in the middle of one of the cited sentences.",
    );
    expect(result.blocks[0]?.headingPath).toEqual(["Two column layout"]);
    const first = result.blocks[0]?.sentences[0]?.spans?.[0];
    expect(first?.rects).toHaveLength(3);
    expect(first?.rects.every((rect) => rect[2] < 306)).toBe(true);
  });

  it("skips the table of contents and does not nest the first chapter under it", async () => {
    const pdf = makeTextPdf([
      [
        { x: 72, y: 720, size: 18, text: "Table of Contents" },
        ...paragraph(
          [
            "1 Introduction . . . . . . . . . . . . . . . . 2",
            "1.1 Scope . . . . . . . . . . . . . . . . . . . 2",
          ],
          690,
        ),
        ...paragraph(["2 Usage", "2.1 Options"], 650),
      ],
      [
        { x: 72, y: 720, size: 18, text: "1 Introduction" },
        ...paragraph(
          ["This guide explains how the reader finds its way through a manual.", "It is short."],
          690,
        ),
        { x: 72, y: 640, size: 14, text: "1.1 Scope" },
        ...paragraph(["The scope is one page of generated text for the test."], 615),
      ],
    ]);
    const result = await extractPdf(pdf, { ocr: false });
    expect(sentencesOf(result)).toEqual([
      "This guide explains how the reader finds its way through a manual.",
      "It is short.",
      "The scope is one page of generated text for the test.",
    ]);
    expect(result.blocks.map((block) => block.headingPath)).toEqual([
      ["1 Introduction"],
      ["1 Introduction", "1.1 Scope"],
    ]);
  });

  it("removes a running header and page footer and carries a sentence across the page break", async () => {
    const topics = ["fonts", "colors", "margins", "tables", "figures", "indexes"];
    const pages = topics.map((topic, index) => [
      { x: 72, y: 760, size: 9, text: "Synthetic Manual, Release 1.0" },
      ...paragraph(
        [
          `This page is about ${topic} and starts with a complete sentence.`,
          `The last sentence about ${topic} does not end on this page but runs on`,
        ],
        700,
      ),
      { x: 300, y: 40, size: 9, text: String(index + 1) },
    ]);
    // The sentence crossing each page break continues at the top of the next page.
    const withContinuations = pages.map((page, index) =>
      index === 0
        ? page
        : [
            page[0] as PlacedText,
            ...paragraph([`to where the ${topics[index - 1]} part ends.`], 730),
            ...page.slice(1),
          ],
    );
    const result = await extractPdf(makeTextPdf(withContinuations), { ocr: false });
    const texts = sentencesOf(result);
    expect(texts.filter((text) => /Synthetic Manual|^\d+$/.test(text))).toEqual([]);
    const crossing = result.blocks
      .flatMap((block) => block.sentences)
      .filter((sentence) => sentence.text.startsWith("The last sentence about"));
    expect(crossing.map((sentence) => sentence.text).slice(0, 2)).toEqual([
      "The last sentence about fonts does not end on this page but runs on to where the fonts part ends.",
      "The last sentence about colors does not end on this page but runs on to where the colors part ends.",
    ]);
    expect(crossing[0]?.spans?.map((span) => span.page_index)).toEqual([0, 1]);
    expect(crossing[0]?.spans?.map((span) => span.rects.length)).toEqual([1, 1]);
  });
});
