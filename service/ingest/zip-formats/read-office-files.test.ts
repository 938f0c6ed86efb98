/**
 * Files as Office libraries write them (testing/fixtures: python-docx 1.2.0 on Word's default template,
 * python-pptx 1.0.2 on PowerPoint's, openpyxl 3.1.5), read end to end: what each block is and where it sits.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readTextSource } from "../text/read-text-source.ts";

const read = (name: string) =>
  readTextSource(name, new Uint8Array(readFileSync(new URL(`./testing/fixtures/${name}`, import.meta.url))));
const located = (name: string) =>
  read(name).blocks.map((block) => [
    block.headingPath.join(" › "),
    block.evidence.kind,
    block.sentences.map((sentence) => sentence.text),
  ]);

describe("files written by Office libraries", () => {
  it("a Word document: title, headings by Word's styles, list items, a table", () => {
    expect(read("handbook.docx").title).toBe("Tape Handbook");
    expect(located("handbook.docx")).toEqual([
      ["", "paragraph", ["This handbook explains how backup tapes are handled."]],
      ["Rotation", "paragraph", ["Tapes rotate every Monday."]],
      ["Rotation", "paragraph", ["Monday: full backup", "Tuesday to Friday: incremental backups"]],
      [
        "Rotation › Retention periods",
        "table",
        ["Tape: Weekly; Kept for: 5 weeks", "Tape: Monthly; Kept for: 1 year"],
      ],
      ["Vault", "paragraph", ["The vault key is held by the site manager."]],
    ]);
  });

  it("a presentation: slides by number and title, notes, a table", () => {
    expect(located("review.pptx")).toEqual([
      ["Slide 1: Backup review", "paragraph", ["Q3 2026"]],
      [
        "Slide 2: Costs",
        "paragraph",
        ["Tapes cost 400 euros a quarter.", "The vault costs 1200 euros a year."],
      ],
      ["Slide 2: Costs › Notes", "paragraph", ["Finance asked for a cheaper vault."]],
      ["Slide 3: Stock", "table", ["Item: LTO-9; Count: 42", "Item: LTO-8; Count: 7"]],
    ]);
  });

  it("a workbook: rows by sheet and number, dates as dates", () => {
    expect(located("stock.xlsx")[0]).toEqual([
      "Stock",
      "table",
      [
        "Row: 2; Item: LTO-9; Count: 42; Received: 2026-03-05",
        "Row: 3; Item: LTO-8; Count: 7.25; Received: 2026-03-06 14:30",
      ],
    ]);
  });
});
