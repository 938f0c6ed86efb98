import { describe, expect, it } from "vitest";
import { missingDocs, parseQaSet } from "./eval-qa-set.ts";

const answerable = {
  id: "q1",
  type: "answerable",
  question: "How do I join the pieces of a split archive?",
  doc: "backups.md",
  answer_contains: ["cat x* > archive.tar"],
};
const unanswerable = { id: "q2", type: "unanswerable", question: "How do I set up a VPN?", doc: null };
const lines = (...values: unknown[]) => values.map((value) => JSON.stringify(value)).join("\n");

describe("reading a question set", () => {
  it("reads one item a line, blank lines skipped, pages empty for a file that is not a PDF", () => {
    const items = parseQaSet(`${lines(answerable)}\n\n${lines(unanswerable)}\n`, "mine.jsonl");
    expect(items.map((item) => [item.id, item.pages, item.answer_contains])).toEqual([
      ["q1", [], ["cat x* > archive.tar"]],
      ["q2", [], []],
    ]);
  });

  it("keeps a follow-up tied to the item it continues", () => {
    const followUp = { ...answerable, id: "q3", question: "And how do I check it?", follow_up_of: "q1" };
    expect(parseQaSet(lines(answerable, followUp), "mine.jsonl")[1]?.follow_up_of).toBe("q1");
  });

  it("names the file and line of a line that is not JSON", () => {
    expect(() => parseQaSet(`${lines(answerable)}\n{"id": "q2",`, "mine.jsonl")).toThrow(
      /^mine\.jsonl line 2 is not JSON/,
    );
  });

  it("names the line and the field of an item that lacks what scoring needs", () => {
    const noType = { ...answerable, type: "maybe" };
    expect(() => parseQaSet(lines(unanswerable, noType), "mine.jsonl")).toThrow(
      /^mine\.jsonl line 2: type: /,
    );
    const noAnswer = { ...answerable, answer_contains: [] };
    expect(() => parseQaSet(lines(noAnswer), "mine.jsonl")).toThrow(
      "mine.jsonl line 1: an answerable item needs a doc and answer_contains",
    );
    expect(() => parseQaSet(lines({ ...answerable, pages: [0] }), "mine.jsonl")).toThrow(
      /^mine\.jsonl line 1: pages\.0: /,
    );
  });

  it("refuses a repeated id and a follow-up of nothing before it", () => {
    expect(() => parseQaSet(lines(answerable, answerable), "mine.jsonl")).toThrow(
      'mine.jsonl line 2: id "q1" is already on line 1',
    );
    const orphan = { ...answerable, id: "q3", follow_up_of: "q9" };
    expect(() => parseQaSet(lines(answerable, orphan), "mine.jsonl")).toThrow(
      'mine.jsonl line 2: follow_up_of "q9" is not the id of an earlier line',
    );
  });

  it("refuses a file without questions", () => {
    expect(() => parseQaSet("\n\n", "empty.jsonl")).toThrow("empty.jsonl holds no questions");
  });

  it("names the cited files that are not among the sources", () => {
    const items = parseQaSet(lines(answerable, unanswerable), "mine.jsonl");
    expect(missingDocs(items, ["backups.md"], "docs/")).toBeNull();
    expect(missingDocs(items, ["other.md"], "docs/")).toBe(
      'no file named "backups.md" under docs/, which the questions cite',
    );
  });
});
