// The model here is a local stand-in speaking the OpenAI chat-completions streaming protocol
// (service/testing/openai-stand-in.ts): no real model can run in this environment.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { collect } from "../../../sdk/core/fixtures/fixture-streams.ts";
import { type OpenAiStandIn, startOpenAiStandIn } from "../../testing/openai-stand-in.ts";
import { LlmError } from "./chat-stream.ts";
import { createLlmEngine, type LlmEngineOptions } from "./llm-engine.ts";
import { consoles, engineRequest, leaving, rootShell } from "./testing/passages.ts";

const chvtSentence =
  "You can change to another virtual console, such as console 3, from the commandline with chvt 3";
const suSentence = 'To get a root shell, type "su -l" from any user shell prompt';
const exitSentence = 'Alternately, you can type "exit" to leave the command prompt';
const goodAnswer = `${chvtSentence} [1.3-4]. ${suSentence} [2.3]. ${exitSentence} [3.2].`;

let standIn: OpenAiStandIn;
beforeEach(async () => {
  standIn = await startOpenAiStandIn();
});
afterEach(async () => {
  await standIn.close();
});

const engine = (options: Partial<LlmEngineOptions> = {}) =>
  createLlmEngine({
    baseUrl: standIn.baseUrl,
    model: "test-model",
    apiKey: "sk-test",
    maxRetries: 0,
    ...options,
  });

const question = "How do I switch consoles, become root and leave the shell?";

describe("the LLM engine (against a local stand-in of the chat-completions protocol)", () => {
  it("turns the model's cited sentences into claims with the cited spans and their support", async () => {
    standIn.enqueue({ kind: "stream", content: goodAnswer });
    const claims = await collect(engine().compose(engineRequest(question)));
    expect(claims.map((claim) => claim.text)).toEqual([
      `${chvtSentence}.`,
      `${suSentence}.`,
      `${exitSentence}.`,
    ]);
    expect(claims.map((claim) => [claim.span.passage.id, claim.span.first, claim.span.last])).toEqual([
      [consoles.id, 2, 3],
      [rootShell.id, 2, 2],
      [leaving.id, 1, 1],
    ]);
    for (const claim of claims) {
      expect(claim.support).toBeGreaterThanOrEqual(0.6);
      expect(claim.support).toBeLessThanOrEqual(1);
      expect(claim.verbatim).toBe(false);
    }
    // Each sentence answers one of the question's three parts: some of what it asks, none of it all.
    for (const claim of claims) {
      expect(claim.relevance).toBeGreaterThan(0.05);
      expect(claim.relevance).toBeLessThan(0.5);
    }

    const request = standIn.requests[0]!;
    expect(request.body).toMatchObject({ model: "test-model", stream: true });
    expect(request.headers.authorization).toBe("Bearer sk-test");
  });

  it("yields each claim as soon as its sentence is complete, while the model is still writing", async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    standIn.enqueue({
      kind: "stream",
      content: [
        `${chvtSentence} [1.3-4]. To`,
        held,
        ` get a root shell, type "su -l" from any user shell prompt [2.3].`,
      ],
    });
    const claims = engine().compose(engineRequest(question))[Symbol.asyncIterator]();
    const first = await claims.next();
    expect(first.value?.text).toBe(`${chvtSentence}.`);
    release();
    expect((await claims.next()).value?.text).toBe(`${suSentence}.`);
    expect((await claims.next()).done).toBe(true);
  });

  it("drops a sentence that cites a passage or sentence it was not given, or no marker at all", async () => {
    standIn.enqueue({
      kind: "stream",
      content:
        "Debian ships six consoles [9.1]. Type root at the login prompt [2.7]. " +
        "Type root at the character based login prompt [2]. Type root at the login prompt. " +
        `${suSentence} [2.3].`,
    });
    const claims = await collect(engine().compose(engineRequest(question)));
    expect(claims.map((claim) => claim.text)).toEqual([`${suSentence}.`]);
  });

  it("drops a sentence its cited text does not support", async () => {
    standIn.enqueue({
      kind: "stream",
      content:
        `${suSentence}, and it also formats your disk [2.3]. ` +
        "You can switch to console 4 with chvt 4 [1.3-4]. " +
        "Debian needs a proper shutdown before power is turned off [3.1]. " +
        "The passages do not say how to reset the root password [2.1]. " +
        `${exitSentence} [3.2].`,
    });
    const claims = await collect(engine().compose(engineRequest(question)));
    expect(claims.map((claim) => claim.text)).toEqual([`${exitSentence}.`]);
  });

  it.each([
    ["NO_ANSWER", "NO_ANSWER"],
    ["an empty answer", ""],
    ["only uncited sentences", "The sources do not say. Sorry."],
  ])("gives no claim (a refusal) when the model answers %s", async (_name, content) => {
    standIn.enqueue({ kind: "stream", content });
    expect(await collect(engine().compose(engineRequest("How do I format a disk?")))).toEqual([]);
  });

  it("refuses without asking the model when no passage was retrieved", async () => {
    expect(await collect(engine().compose(engineRequest("Anything?", { ranked: [] })))).toEqual([]);
    expect(standIn.requests).toHaveLength(0);
  });

  it.each([1, 2, 3, 7])(
    "parses the stream the same when the model sends %i characters at a time",
    async (size) => {
      standIn.enqueue({ kind: "stream", content: goodAnswer, pieceLength: size });
      const claims = await collect(engine().compose(engineRequest(question)));
      expect(claims.map((claim) => claim.text)).toEqual([
        `${chvtSentence}.`,
        `${suSentence}.`,
        `${exitSentence}.`,
      ]);
    },
  );

  it("parses markers split across chunks", async () => {
    standIn.enqueue({
      kind: "stream",
      content: [`${suSentence} [`, "2", ".", "3", "]", ". ", `${exitSentence} [3.`, "2]", "."],
    });
    const claims = await collect(engine().compose(engineRequest(question)));
    expect(claims.map((claim) => [claim.text, claim.span.first])).toEqual([
      [`${suSentence}.`, 2],
      [`${exitSentence}.`, 1],
    ]);
  });

  it("stops at the detail level's number of claims", async () => {
    standIn.enqueue({ kind: "stream", content: goodAnswer });
    const claims = await collect(engine().compose(engineRequest(question, { detail: "SUCCINCT" })));
    expect(claims).toHaveLength(2);
  });

  it.each([
    ["an HTTP error", { kind: "status", status: 500 } as const, { failure: "http", status: 500 }],
    ["silence", { kind: "hang" } as const, { failure: "timeout" }],
    [
      "malformed server-sent events",
      { kind: "garbage", body: "data: {not json\n\n" } as const,
      { failure: "protocol" },
    ],
    ["a stream cut short", { kind: "stream", content: "Type root", end: "drop" } as const, {}],
  ])("throws an LlmError on %s", async (_name, reply, expected) => {
    standIn.enqueue(reply);
    const failing = collect(engine({ timeoutMs: 300 }).compose(engineRequest(question)));
    await expect(failing).rejects.toBeInstanceOf(LlmError);
    await expect(failing).rejects.toMatchObject(expected);
  });

  it("times out when the model falls silent mid-answer, after the claims it completed", async () => {
    standIn.enqueue({ kind: "stream", content: [`${suSentence} [2.3]. Then`], end: "hang" });
    const seen: string[] = [];
    const reading = (async () => {
      for await (const claim of engine({ timeoutMs: 300 }).compose(engineRequest(question)))
        seen.push(claim.text);
    })();
    await expect(reading).rejects.toMatchObject({ failure: "timeout" });
    expect(seen).toEqual([`${suSentence}.`]);
  });

  it("ends quietly when the asker goes away", async () => {
    standIn.enqueue({ kind: "hang" });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const claims = await collect(engine().compose(engineRequest(question, { signal: controller.signal })));
    expect(claims).toEqual([]);
  });
});
