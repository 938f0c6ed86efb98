import { describe, expect, it } from "vitest";
import { readFixture } from "./fixtures/fixture-streams.ts";
import { parseMarker } from "./markers.ts";
import { reduceAnswerText } from "./read-answers.ts";
import { resolveMarker } from "./resolve-marker.ts";
import { segmentAnswer } from "./segment-answer.ts";

const answer = reduceAnswerText(readFixture("answer-stream.ndjson"));

describe("segmentAnswer", () => {
  it("splits text into text, claim and citation segments", () => {
    expect(segmentAnswer("R is free{{GIST:1}} {{CIT:ref_7Hq2mX9pLc}}.")).toEqual([
      { type: "text", text: "R is free" },
      { type: "claim", n: 1, marker: "{{GIST:1}}" },
      { type: "text", text: " " },
      { type: "citation", id: "ref_7Hq2mX9pLc", marker: "{{CIT:ref_7Hq2mX9pLc}}" },
      { type: "text", text: "." },
    ]);
  });

  it("puts the whole recorded answer back together from its segments", () => {
    const segments = segmentAnswer(answer.text, { final: true });

    expect(
      segments.map((segment) => (segment.type === "text" ? segment.text : segment.marker)).join(""),
    ).toBe(answer.text);
    expect(segments.filter((segment) => segment.type !== "text")).toHaveLength(6);
  });

  it("hides a marker still being streamed at the end of a snapshot", () => {
    for (const tail of [
      "{",
      "{{",
      "{{CI",
      "{{CIT:",
      "{{CIT:ref_a",
      "{{CIT:ref_a}",
      "{{GIST:",
      "{{GIST:12}",
    ]) {
      expect(segmentAnswer(`Sources{{GIST:1}} say${tail}`), tail).toEqual([
        { type: "text", text: "Sources" },
        { type: "claim", n: 1, marker: "{{GIST:1}}" },
        { type: "text", text: " say" },
      ]);
    }
  });

  it("shows an unclosed marker as text once the answer is final", () => {
    expect(segmentAnswer("see {{CIT:ref_a", { final: true })).toEqual([
      { type: "text", text: "see {{CIT:ref_a" },
    ]);
  });

  it("keeps invalid markers as plain text", () => {
    for (const text of [
      "a {{CIT:}} b",
      "a {{GIST:x}} b",
      "a {{GIST:0}} b",
      "a {{FOO:1}} b",
      "a {{CIT:ref a}} b",
      "{x}",
    ]) {
      expect(segmentAnswer(text), text).toEqual([{ type: "text", text }]);
    }
  });

  it("finds a marker right after stray braces", () => {
    expect(segmentAnswer("{{{GIST:2}}}")).toEqual([
      { type: "text", text: "{" },
      { type: "claim", n: 2, marker: "{{GIST:2}}" },
      { type: "text", text: "}" },
    ]);
  });

  it("does not hide a long brace-opened tail that can no longer be a marker", () => {
    const text = `code {{CIT:${"x".repeat(200)}`;

    expect(segmentAnswer(text)).toEqual([{ type: "text", text }]);
  });

  it("returns no segments for empty text", () => {
    expect(segmentAnswer("")).toEqual([]);
  });
});

describe("parseMarker", () => {
  it("parses whole markers only", () => {
    expect(parseMarker("{{GIST:12}}")).toEqual({ type: "claim", n: 12, marker: "{{GIST:12}}" });
    expect(parseMarker("{{CIT:ref_7Hq2mX9pLc}}")).toMatchObject({ type: "citation", id: "ref_7Hq2mX9pLc" });
    expect(parseMarker(" {{GIST:1}}")).toBeNull();
    expect(parseMarker("{{GIST:1}}x")).toBeNull();
  });
});

describe("resolveMarker", () => {
  it("resolves a claim marker to its claim", () => {
    const resolved = resolveMarker("{{GIST:2}}", answer);

    expect(resolved).toEqual({ kind: "claim", claim: answer.claims[2] });
  });

  it("resolves a citation marker, or a parsed segment, to its reference and display number", () => {
    const citation = segmentAnswer(answer.text).find((segment) => segment.type === "citation");

    expect(citation).toBeDefined();
    expect(resolveMarker(citation ?? "", answer)).toEqual({
      kind: "reference",
      reference: answer.references.ref_7Hq2mX9pLc,
      number: 1,
    });
  });

  it("gives a null number to a reference not numbered yet", () => {
    const resolved = resolveMarker("{{CIT:ref_7Hq2mX9pLc}}", { ...answer, numbering: {} });

    expect(resolved).toMatchObject({ kind: "reference", number: null });
  });

  it("reports misses with a reason instead of throwing", () => {
    expect(resolveMarker("{{GIST:9}}", answer)).toEqual({
      kind: "miss",
      marker: "{{GIST:9}}",
      reason: "unknown_claim",
    });
    expect(resolveMarker("{{CIT:ref_unknown0}}", answer)).toMatchObject({ reason: "unknown_reference" });
    expect(resolveMarker("{{CIT:constructor}}", answer)).toMatchObject({ reason: "unknown_reference" });
    expect(resolveMarker("{{CIT:__proto__}}", answer)).toMatchObject({ reason: "unknown_reference" });
    expect(resolveMarker("GIST:1", answer)).toEqual({
      kind: "miss",
      marker: "GIST:1",
      reason: "invalid_marker",
    });
  });
});
