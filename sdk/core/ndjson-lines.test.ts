import { describe, expect, it } from "vitest";
import { AnswerStreamError } from "./answer-stream-error.ts";
import { createLineSplitter, parseNdjsonLine } from "./ndjson-lines.ts";

describe("createLineSplitter", () => {
  it("buffers a partial line until its newline arrives", () => {
    const splitter = createLineSplitter();

    expect(splitter.push('{"type":"sta')).toEqual([]);
    expect(splitter.push('tus"}\r\n{"a"')).toEqual([
      { text: '{"type":"status"}', lineNumber: 1, terminated: true },
    ]);
    expect(splitter.end()).toEqual([{ text: '{"a"', lineNumber: 2, terminated: false }]);
  });

  it("skips blank lines but counts them, and drops a leading byte-order mark", () => {
    const splitter = createLineSplitter();
    const lines = [...splitter.push("\uFEFF{}\n\n \r\n"), ...splitter.push("[1]\n"), ...splitter.end()];

    expect(lines.map((line) => [line.lineNumber, line.text])).toEqual([
      [1, "{}"],
      [4, "[1]"],
    ]);
    expect(splitter.completedLines).toBe(4);
  });
});

describe("parseNdjsonLine", () => {
  it("reports a cut-off last line as truncated and any other bad line as invalid JSON", () => {
    const cut = () => parseNdjsonLine({ text: '{"type":', lineNumber: 5, terminated: false });
    const bad = () => parseNdjsonLine({ text: "{oops}", lineNumber: 2, terminated: true });

    expect(cut).toThrow(AnswerStreamError);
    expect(cut).toThrow(/^Answer stream line 5: the stream ended inside this line/);
    expect(bad).toThrow(/^Answer stream line 2: not valid JSON: \{oops\}/);
  });
});
