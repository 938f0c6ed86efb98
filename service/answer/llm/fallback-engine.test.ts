// The model here is a local stand-in speaking the OpenAI chat-completions streaming protocol
// (service/testing/openai-stand-in.ts): no real model can run in this environment.
import { afterEach, beforeEach, describe, expect, it, type Mock, vi } from "vitest";
import { collect } from "../../../sdk/core/fixtures/fixture-streams.ts";
import type { Logger } from "../../logger.ts";
import { type OpenAiStandIn, type StandInReply, startOpenAiStandIn } from "../../testing/openai-stand-in.ts";
import { createExtractiveEngine } from "../extractive-engine.ts";
import { createFallbackEngine } from "./fallback-engine.ts";
import { createLlmEngine } from "./llm-engine.ts";
import { engineRequest } from "./testing/passages.ts";

let standIn: OpenAiStandIn;
let warn: Mock<Logger["warn"]>;
let logger: Logger;
beforeEach(async () => {
  standIn = await startOpenAiStandIn();
  warn = vi.fn<Logger["warn"]>();
  logger = { info: vi.fn(), warn, error: vi.fn() };
});
afterEach(async () => {
  await standIn.close();
});

const extractive = createExtractiveEngine();
const engine = () =>
  createFallbackEngine(
    createLlmEngine({
      baseUrl: standIn.baseUrl,
      model: "test",
      apiKey: "none",
      maxRetries: 0,
      timeoutMs: 300,
    }),
    extractive,
    logger,
  );
const question = "How do I change to another virtual console from the commandline?";
const modelSentence = "You can change to another virtual console from the commandline with chvt 3";

describe("falling back to the extractive engine (model: a local protocol stand-in)", () => {
  it.each<[string, StandInReply]>([
    ["answers 500", { kind: "status", status: 500 }],
    ["does not answer in time", { kind: "hang" }],
    ["sends malformed server-sent events", { kind: "garbage", body: "data: {not json\n\n" }],
    ["cuts the stream before its first claim", { kind: "stream", content: "You can", end: "drop" }],
  ])("answers with the extractive claims when the model %s", async (_name, reply) => {
    standIn.enqueue(reply);
    const expected = await collect(extractive.compose(engineRequest(question)));
    expect(expected.length).toBeGreaterThan(0);

    const claims = await collect(engine().compose(engineRequest(question)));
    expect(claims).toEqual(expected);
    expect(warn).toHaveBeenCalledWith(
      "answer engine failed; answering with the fallback engine",
      expect.objectContaining({ engine: "llm", fallback: "extractive" }),
    );
  });

  it("keeps the verified claims and stops when the model fails mid-answer", async () => {
    standIn.enqueue({ kind: "stream", content: `${modelSentence} [1.3-4]. Then you`, end: "drop" });
    const claims = await collect(engine().compose(engineRequest(question)));
    expect(claims.map((claim) => claim.text)).toEqual([`${modelSentence}.`]);
    expect(warn).toHaveBeenCalledWith(
      "answer engine failed mid-answer; keeping the claims already given",
      expect.objectContaining({ engine: "llm", claims: 1 }),
    );
  });

  it("uses the model's answer when it works, and its refusal when it says NO_ANSWER", async () => {
    standIn.enqueue(
      { kind: "stream", content: `${modelSentence} [1.3-4].` },
      { kind: "stream", content: "NO_ANSWER" },
    );
    expect((await collect(engine().compose(engineRequest(question)))).map((claim) => claim.text)).toEqual([
      `${modelSentence}.`,
    ]);
    expect(await collect(engine().compose(engineRequest(question)))).toEqual([]);
    expect(warn).not.toHaveBeenCalled();
  });
});
