import { describe, expect, it } from "vitest";
import { type AnswerState, answerActivityLimit, createAnswerState } from "./answer-state.ts";
import { AnswerStreamError } from "./answer-stream-error.ts";
import { readFixture } from "./fixtures/fixture-streams.ts";
import { mergeAnswer } from "./merge-answer.ts";

const fixtureLines: unknown[] = readFixture("answer-stream.ndjson")
  .trim()
  .split("\n")
  .map((line) => JSON.parse(line));

const messageId = "msg_4kT9xVb2QwLp7Rz";

function fold(lines: readonly unknown[], start: AnswerState = createAnswerState()): AnswerState {
  return lines.reduce<AnswerState>((state, line) => mergeAnswer(state, line), start);
}

function deepFreeze<Value>(value: Value): Value {
  if (typeof value === "object" && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

function catchError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

describe("mergeAnswer", () => {
  it("reduces the recorded stream to the final answer", () => {
    const answer = fold(fixtureLines);

    expect(answer.phase).toBe("done");
    expect(answer.messageId).toBe(messageId);
    expect(answer.text).toMatch(/^R is a free environment.*📊\{\{GIST:3\}\} \{\{CIT:ref_Qm5vR2sYd8\}\}\.$/);
    expect(Object.keys(answer.claims)).toEqual(["1", "2", "3"]);
    expect(Object.keys(answer.references)).toEqual(["ref_7Hq2mX9pLc", "ref_Bz4nT8wKe1", "ref_Qm5vR2sYd8"]);
    expect(answer.numbering).toEqual({ ref_7Hq2mX9pLc: 1, ref_Bz4nT8wKe1: 2, ref_Qm5vR2sYd8: 3 });
    expect(answer.status).toEqual({
      stage: "verifying",
      message: "Checking every claim against its passage",
    });
    expect(answer.activity.map((activity) => activity.name)).toEqual(["search", "read"]);
    expect(answer).toMatchObject({ refusal: false, usage: { passages_read: 12, ms: 1843 }, error: null });
  });

  it("keeps claims and references that later utterances no longer repeat", () => {
    const utterances = fixtureLines.filter((line) => (line as { type: string }).type === "utterance");
    const afterSecond = fold(utterances.slice(0, 2));

    expect(afterSecond.claims[1]?.text).toBe(
      "R is a free environment for statistical computing and graphics.",
    );
    expect(afterSecond.references.ref_7Hq2mX9pLc?.title).toBe("R-intro.pdf");
    expect(afterSecond.numbering).toEqual({ ref_7Hq2mX9pLc: 1, ref_Bz4nT8wKe1: 2 });
  });

  it("replaces a claim sent again with the same number", () => {
    const answer = fold(fixtureLines);

    expect(answer.claims[1]?.support).toBe(0.93);
  });

  it("replaces the text instead of appending to it", () => {
    const base = { type: "utterance", id_message: messageId };
    const answer = fold([
      { ...base, text: "R is" },
      { ...base, text: "R is free" },
    ]);

    expect(answer.text).toBe("R is free");
  });

  it("never changes the state it is given", () => {
    const states = [createAnswerState()];
    for (const line of fixtureLines) {
      const before = deepFreeze(states.at(-1) as AnswerState);
      const snapshot = structuredClone(before);
      states.push(mergeAnswer(before, line));
      expect(before).toEqual(snapshot);
    }
    expect(new Set(states).size).toBe(states.length);
  });

  it("keeps only the last few activity lines", () => {
    const lines = Array.from({ length: answerActivityLimit + 3 }, (_, index) => ({
      type: "activity",
      name: `step-${index}`,
      detail: {},
    }));
    const answer = fold(lines);

    expect(answer.activity).toHaveLength(answerActivityLimit);
    expect(answer.activity.at(-1)?.name).toBe(`step-${answerActivityLimit + 2}`);
  });

  it("ends in the error phase with the problem details of an error line", () => {
    const problem = {
      type: "about:blank",
      title: "Upstream failure",
      status: 502,
      code: "upstream_error",
      detail: "the model did not answer",
      request_id: "req_123",
    };
    const answer = fold([fixtureLines[0], fixtureLines[5], { type: "error", error: problem }]);

    expect(answer.phase).toBe("error");
    expect(answer.error).toEqual(problem);
    expect(answer.text).toContain("{{GIST:1}}");
  });

  it("ignores line types it does not know, returning the same state", () => {
    const state = fold(fixtureLines.slice(0, 3));

    expect(mergeAnswer(state, { type: "heartbeat", at: 5 })).toBe(state);
  });

  it("names the line when a known line type is malformed", () => {
    const line = { type: "utterance", id_message: messageId, text: "x", claims: [{ n: 0 }] };
    const error = catchError(() => mergeAnswer(createAnswerState(), line, { lineNumber: 4 }));

    expect(AnswerStreamError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ reason: "invalid_line", lineType: "utterance", lineNumber: 4 });
    expect((error as AnswerStreamError).message).toMatch(
      /^Answer stream line 4 \(utterance\): malformed line: claims\.0\.n/,
    );
    expect((error as AnswerStreamError).issues.map((issue) => issue.path.join("."))).toContain(
      "claims.0.support",
    );
  });

  it("rejects a line that is not an object with a type", () => {
    for (const line of [null, 42, "utterance", [], { stage: "reading" }, { type: 7 }]) {
      expect(() => mergeAnswer(createAnswerState(), line)).toThrow(AnswerStreamError);
    }
  });

  it("rejects any line after done or error", () => {
    const done = fold(fixtureLines);
    const error = catchError(() => mergeAnswer(done, fixtureLines[0], { lineNumber: 11 }));

    expect(error).toMatchObject({ reason: "unexpected_line", lineType: "status", lineNumber: 11 });
    expect(() => mergeAnswer(done, { type: "heartbeat" })).toThrow(/after|follow/);
  });

  it("rejects a line that belongs to another message", () => {
    const state = fold(fixtureLines.slice(0, 6));
    const other = {
      type: "done",
      id_message: "msg_0ther0000",
      refusal: false,
      usage: { passages_read: 1, ms: 1 },
    };

    expect(catchError(() => mergeAnswer(state, other))).toMatchObject({ reason: "unexpected_line" });
  });
});
