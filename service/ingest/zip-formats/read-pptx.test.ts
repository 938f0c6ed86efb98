/** Presentations: one slide is one location, named by its number and title; notes under it. */
import { describe, expect, it } from "vitest";
import { readPptx } from "./read-pptx.ts";
import { pptx, zipOf } from "./testing/build-documents.ts";

describe("readPptx", () => {
  it("names each block by its slide and keeps body, table and notes apart", () => {
    const result = readPptx(
      "deck.pptx",
      pptx([
        {
          title: "Backup plan",
          body: ["Weekly full backups.", "Daily incremental ones."],
          notes: ["Mention the vault."],
        },
        { body: ["A slide without a title."] },
        {
          title: "Costs",
          table: [
            ["Item", "Cost"],
            ["Tapes", "400"],
          ],
        },
      ]),
      {},
    );
    expect(result.title).toBe("Backup plan");
    expect(
      result.blocks.map((block) => [
        block.headingPath.join(" › "),
        block.evidence.kind,
        block.sentences.map((sentence) => sentence.text),
      ]),
    ).toEqual([
      ["Slide 1: Backup plan", "paragraph", ["Weekly full backups.", "Daily incremental ones."]],
      ["Slide 1: Backup plan › Notes", "paragraph", ["Mention the vault."]],
      ["Slide 2", "paragraph", ["A slide without a title."]],
      ["Slide 3: Costs", "table", ["Item: Tapes; Cost: 400"]],
    ]);
  });

  it("takes the title from the document properties when set", () => {
    const result = readPptx(
      "deck.pptx",
      pptx([{ title: "One", body: ["Text."] }], { title: "Q3 review" }),
      {},
    );
    expect(result.title).toBe("Q3 review");
  });

  it("says a workbook named .pptx is a workbook", () => {
    // An Excel package: it has xl/workbook.xml, not ppt/presentation.xml.
    const zip = zipOf({ "xl/workbook.xml": "<workbook/>" });
    expect(() => readPptx("deck.pptx", zip, {})).toThrow(
      "This is not a PowerPoint presentation: it looks like an Excel workbook (.xlsx). Rename it with the right extension and upload it again.",
    );
  });
});
