import { describe, expect, it } from "vitest";
import type { AnswerState } from "./answer-state.ts";
import { AnswerStreamError } from "./answer-stream-error.ts";
import {
  bytesOf,
  collect,
  iterableOf,
  readFixture,
  rejection,
  splitAt,
  streamOf,
} from "./fixtures/fixture-streams.ts";
import { readAnswers, reduceAnswerText } from "./read-answers.ts";
import { parseNdjson } from "./read-lines.ts";

const fixture = readFixture("answer-stream.ndjson");
const fixtureBytes = bytesOf(fixture);
const expected = reduceAnswerText(fixture);

/** Bytes of the fixture before the first occurrence of `marker` (string indexes are not byte offsets). */
function bytesBefore(marker: string): Uint8Array {
  return bytesOf(fixture.slice(0, fixture.indexOf(marker)));
}

async function finalAnswer(chunks: readonly Uint8Array[]): Promise<AnswerState | undefined> {
  return (await collect(readAnswers(streamOf(chunks)))).at(-1);
}

describe("readAnswers", () => {
  it("yields one snapshot per answer-changing line, ending with the done answer", async () => {
    const answers = await collect(readAnswers(streamOf([fixtureBytes])));

    expect(answers).toHaveLength(10);
    expect(answers.map((answer) => answer.phase)).toEqual([...Array(9).fill("streaming"), "done"]);
    expect(answers.at(-1)).toEqual(expected);
    expect(answers[5]?.text).toBe(
      "R is a free environment for statistical computing and graphics{{GIST:1}} {{CIT:ref_7Hq2mX9pLc}}.",
    );
  });

  it("keeps the fixture's multi-byte characters whole", () => {
    expect(expected.text).toContain("café laptop ☕");
    expect(expected.text).toContain("数据手册");
    expect(expected.references.ref_Qm5vR2sYd8?.quote).toContain("📊");
  });

  it("gives the same answer when the stream splits at any byte, even inside a character", async () => {
    for (let offset = 0; offset <= fixtureBytes.length; offset += 1) {
      expect(await finalAnswer(splitAt(fixtureBytes, [offset])), `split at byte ${offset}`).toEqual(expected);
    }
  });

  it("gives the same answer from one-byte chunks, as a web stream or an async iterable", async () => {
    const offsets = Array.from({ length: fixtureBytes.length - 1 }, (_, index) => index + 1);
    const chunks = splitAt(fixtureBytes, offsets);

    expect(await finalAnswer(chunks)).toEqual(expected);
    expect((await collect(readAnswers(iterableOf(chunks)))).at(-1)).toEqual(expected);
  });

  it("accepts CRLF line endings and blank lines", async () => {
    const loose = `\r\n${fixture.replaceAll("\n", "\r\n\r\n  \r\n")}`;

    expect(await finalAnswer([bytesOf(loose)])).toEqual(expected);
    expect(reduceAnswerText(loose)).toEqual(expected);
  });

  it("reads a refusal", async () => {
    const answer = await finalAnswer([bytesOf(readFixture("refusal-stream.ndjson"))]);

    expect(answer).toMatchObject({ phase: "done", refusal: true, claims: {}, references: {} });
  });

  it("skips unknown line types without a snapshot", async () => {
    const withUnknown = fixture.replace("\n", '\n{"type":"heartbeat","at":1}\n');
    const answers = await collect(readAnswers(streamOf([bytesOf(withUnknown)])));

    expect(answers).toHaveLength(10);
    expect(answers.at(-1)).toEqual(expected);
  });

  it("stops at the done line and cancels the source, reading nothing after it", async () => {
    const stream = streamOf([fixtureBytes, bytesOf("not json at all\n")]);
    const answers = await collect(readAnswers(stream));

    expect(answers.at(-1)?.phase).toBe("done");
    expect(stream.cancelled).toBe(true);
    expect(stream.pulls).toBe(1);
  });

  it("ends after an error line with the problem details", async () => {
    const problem = `{"type":"about:blank","title":"Unavailable","status":503,"code":"unavailable","detail":"try again","request_id":"req_9"}`;
    const text = `${fixture.split("\n").slice(0, 6).join("\n")}\n{"type":"error","error":${problem}}\n`;
    const answer = await finalAnswer([bytesOf(text)]);

    expect(answer).toMatchObject({ phase: "error", error: { code: "unavailable", request_id: "req_9" } });
    expect(answer?.text).toContain("{{GIST:1}}");
  });

  it("fails as truncated, keeping the answer so far, when the stream ends before done", async () => {
    const cut = bytesBefore('{"type":"status","stage":"verifying"');
    const error = await rejection(collect(readAnswers(streamOf([cut]))));

    expect(AnswerStreamError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ reason: "truncated", lineNumber: 8 });
    expect((error as AnswerStreamError).state?.claims[3]?.n).toBe(3);
  });

  it("fails as truncated when the stream ends inside a line or a character", async () => {
    const insideLine = bytesBefore('"type":"done"');
    const insideCharacter = fixtureBytes.slice(0, bytesBefore("☕").length + 1);

    expect(await rejection(finalAnswer([insideLine]))).toMatchObject({ reason: "truncated", lineNumber: 10 });
    expect(await rejection(finalAnswer([insideCharacter]))).toMatchObject({ reason: "truncated" });
    expect(() => reduceAnswerText(fixture.slice(0, -30))).toThrow(
      /line 10: the stream ended inside this line/,
    );
  });

  it("names the line that is not JSON", async () => {
    const broken = fixture.replace(
      '{"type":"status","stage":"reading"',
      '{"type":"status" "stage":"reading"',
    );
    const error = await rejection(finalAnswer([bytesOf(broken)]));

    expect(error).toMatchObject({ reason: "invalid_json", lineNumber: 3 });
    expect((error as Error).message).toMatch(/^Answer stream line 3: not valid JSON/);
    expect(() => reduceAnswerText(broken)).toThrow(/line 3: not valid JSON/);
  });

  it("names a malformed line of a known type", async () => {
    const broken = fixture.replace('"refusal":false', '"refusal":"no"');
    const error = await rejection(finalAnswer([bytesOf(broken)]));

    expect(error).toMatchObject({ reason: "invalid_line", lineType: "done", lineNumber: 10 });
    expect((error as AnswerStreamError).state?.phase).toBe("streaming");
  });

  it("rejects bytes that are not UTF-8", async () => {
    const bytes = new Uint8Array([...bytesOf('{"type":"status","stage":"reading","message":"'), 0xff, 0xfe]);

    expect(await rejection(finalAnswer([bytes]))).toMatchObject({
      reason: "invalid_encoding",
      lineNumber: 1,
    });
  });

  it("stops reading and cancels the source when the signal aborts", async () => {
    const controller = new AbortController();
    const stream = streamOf(splitAt(fixtureBytes, [100, 200, 300, 400]));
    const seen: AnswerState[] = [];
    const error = await rejection(
      (async () => {
        for await (const answer of readAnswers(stream, { signal: controller.signal })) {
          seen.push(answer);
          controller.abort(new DOMException("The user stopped the answer", "AbortError"));
        }
      })(),
    );

    expect((error as DOMException).name).toBe("AbortError");
    expect(seen).toHaveLength(1);
    expect(stream.cancelled).toBe(true);
    expect(stream.pulls).toBeLessThan(5);
  });

  it("stops a read that is waiting for bytes when the signal aborts", async () => {
    const controller = new AbortController();
    let cancelled = false;
    const stalled = new ReadableStream<Uint8Array>({
      start(streamController) {
        streamController.enqueue(bytesOf('{"type":"status","stage":"retrieving","message":"…"}\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    const reading = collect(readAnswers(stalled, { signal: controller.signal }));
    setTimeout(() => controller.abort(), 10);

    expect(await rejection(reading)).toMatchObject({ name: "AbortError" });
    expect(cancelled).toBe(true);
  });

  it("stops an async-iterable source that is waiting for bytes when the signal aborts", async () => {
    const controller = new AbortController();
    let finished = false;
    async function* stalled(): AsyncGenerator<Uint8Array> {
      try {
        yield bytesOf('{"type":"status","stage":"retrieving","message":"…"}\n');
        await new Promise((resolve) => setTimeout(resolve, 50));
        yield bytesOf("never read\n");
      } finally {
        finished = true;
      }
    }
    const reading = collect(readAnswers(stalled(), { signal: controller.signal }));
    setTimeout(() => controller.abort(), 10);

    expect(await rejection(reading)).toMatchObject({ name: "AbortError" });
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(finished).toBe(true);
  });

  it("does not start reading with an already aborted signal", async () => {
    const stream = streamOf([fixtureBytes]);
    const reading = collect(readAnswers(stream, { signal: AbortSignal.abort() }));

    expect(await rejection(reading)).toMatchObject({ name: "AbortError" });
    expect(stream.pulls).toBe(0);
  });
});

describe("parseNdjson", () => {
  it("yields each JSON value with its line number, blank lines counted", async () => {
    const values = await collect(parseNdjson(streamOf([bytesOf('{"a":1}\r\n\n[2]\n"three"')])));

    expect(values).toEqual([
      { value: { a: 1 }, lineNumber: 1 },
      { value: [2], lineNumber: 3 },
      { value: "three", lineNumber: 4 },
    ]);
  });
});
