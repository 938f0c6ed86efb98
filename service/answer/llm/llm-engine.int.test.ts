// The real service process with its LLM engine pointed at a local stand-in that speaks the OpenAI
// chat-completions streaming protocol (service/testing/openai-stand-in.ts): no real model can run here.
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AnswerState, reduceAnswerText } from "../../../sdk/core/index.ts";
import { publicPaths } from "../../../sdk/core/service-paths.ts";
import type { AskStreamLine } from "../../../sdk/core/wire.ts";
import {
  type OpenAiStandIn,
  promptText,
  type StandInRequest,
  startOpenAiStandIn,
} from "../../testing/openai-stand-in.ts";
import { callPublic } from "../../testing/public-api-client.ts";
import {
  evalPdfFolder,
  extractPdfPages,
  type PublicApiFixture,
  startPublicApiFixture,
  testUser,
} from "../../testing/public-api-fixture.ts";

const question = "How do I change to another virtual console from the commandline?";
const followUp = "And how do I get back to the GUI?";
const supported = "You can change to another virtual console, such as console 3, from the commandline";
const invented = "Changing the console also deletes your home directory";

/** The marker of the first numbered prompt sentence that matches `pattern`, e.g. `3.2`. */
function markerOf(request: StandInRequest, pattern: RegExp): string {
  const line = promptText(request)
    .split("\n")
    .find((text) => /^\[\d+\.\d+\] /.test(text) && pattern.test(text));
  if (!line) throw new Error(`no prompt sentence matches ${pattern}:\n${promptText(request)}`);
  return line.slice(1, line.indexOf("]"));
}

/** The stand-in's model: cites the console sentence, adds an unsupported and a mis-cited one; NO_ANSWER to the follow-up. */
function scriptedModel(request: StandInRequest) {
  const prompt = promptText(request);
  if (prompt.includes(`Question: ${followUp}`)) return { kind: "stream", content: "NO_ANSWER" } as const;
  const cited = markerOf(request, /console 3, from the commandline/);
  return {
    kind: "stream",
    content: `${supported} [${cited}]. ${invented} [${cited}]. It runs in a terminal [99.1].`,
    pieceLength: 3,
  } as const;
}

let standIn: OpenAiStandIn;
let fixture: PublicApiFixture;
let key: string;

beforeAll(async () => {
  standIn = await startOpenAiStandIn({ script: scriptedModel });
  const small = extractPdfPages(join(evalPdfFolder, "debian-reference.en.pdf"), "30-34", "small.pdf");
  fixture = await startPublicApiFixture({
    process: "spawned",
    files: [{ path: small }],
    env: { CKA_LLM_BASE_URL: standIn.baseUrl, CKA_LLM_MODEL: "test" },
  });
  key = (await fixture.createKey(["ask"])).key;
});
afterAll(async () => {
  await fixture?.stop();
  await standIn?.close();
});

async function ask(
  session: string,
  message: string,
): Promise<{ lines: AskStreamLine[]; answer: AnswerState }> {
  const response = await callPublic(fixture.url, {
    path: publicPaths.ask(fixture.assistant.id, session),
    key,
    body: { id_user: testUser, message },
  });
  const text = await response.text();
  expect(response.status, text).toBe(200);
  const lines = text
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as AskStreamLine);
  return { lines, answer: reduceAnswerText(text) };
}

describe("asking the service when an LLM is configured (model: a local protocol stand-in)", () => {
  const session = randomUUID();

  it("streams the model's verified claims, each citing the PDF sentence it was checked against", async () => {
    const { lines, answer } = await ask(session, question);
    expect(answer.phase).toBe("done");
    expect(answer.refusal).toBe(false);
    const claims = Object.values(answer.claims);
    expect(claims.map((claim) => claim.text)).toEqual([`${supported}.`]);
    expect(answer.text).not.toContain("deletes");
    expect(answer.text).not.toContain("terminal");
    expect(lines.filter((line) => line.type === "utterance")).toHaveLength(1);

    const claim = claims[0]!;
    expect(claim.support).toBeGreaterThanOrEqual(0.6);
    const reference = answer.references[claim.reference_ids[0]!]!;
    expect(reference).toMatchObject({ kind: "pdf_highlight", title: "small.pdf" });
    expect(reference.quote).toContain("console 3, from the commandline");

    const request = standIn.requests.at(-1)!;
    expect(request.body).toMatchObject({ model: "test", stream: true });
    expect(promptText(request)).toContain(`Question: ${question}`);
  });

  it("shows the model the previous turn for a follow-up, and refuses when the model finds no answer", async () => {
    const { answer } = await ask(session, followUp);
    const prompt = promptText(standIn.requests.at(-1)!);
    expect(prompt).toContain(`User: ${question}`);
    expect(prompt).toContain(`Assistant: ${supported}.`);
    expect(prompt).not.toContain("{{GIST");
    expect(answer.refusal).toBe(true);
    expect(Object.keys(answer.claims)).toHaveLength(0);
  });

  it("still answers, extractively, when the model is down", async () => {
    await standIn.close();
    const { answer } = await ask(randomUUID(), question);
    expect(answer.phase).toBe("done");
    expect(answer.refusal).toBe(false);
    const claims = Object.values(answer.claims);
    expect(claims.length).toBeGreaterThan(0);
    // Extractive claims are the source's own sentences: each claim is its reference's quote.
    for (const claim of claims) expect(answer.references[claim.reference_ids[0]!]?.quote).toBe(claim.text);
    expect(claims.map((claim) => claim.text).join(" ")).toContain("console 3, from the commandline");
    expect(fixture.service.logs()).toContain("answering with the fallback engine");
  });
});
