/** Presentations: one slide is one location, named by its number and title; notes under it. */
import { describe, expect, it } from "vitest";
import { readPptx } from "./read-pptx.ts";
import { placeholderShape, pptx, zipOf } from "./testing/build-documents.ts";

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

  it("reads a shape PowerPoint wraps for newer readers (an equation's text box) once, from its newer form", () => {
    const box = (text: string) => placeholderShape(null, [text]);
    const wrapped = `<mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"><mc:Choice Requires="a14">${box(
      "Flow equals pressure over resistance.",
    )}</mc:Choice><mc:Fallback>${box("Flow equals pressure over resistance.")}</mc:Fallback></mc:AlternateContent>`;
    const result = readPptx("physics.pptx", pptx([{ title: "Flow", shapes: wrapped }]), {});
    expect(result.blocks.flatMap((block) => block.sentences.map((sentence) => sentence.text))).toEqual([
      "Flow equals pressure over resistance.",
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
