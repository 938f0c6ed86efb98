// A client that leaves mid-answer, against the real service with its LLM engine pointed at a local
// stand-in that holds its reply until the test lets it go (service/testing/openai-stand-in.ts).
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { publicPaths } from "../../sdk/core/service-paths.ts";
import { type AskStreamLine, askStreamLineSchema } from "../../sdk/core/wire.ts";
import {
  type OpenAiStandIn,
  promptText,
  type StandInRequest,
  startOpenAiStandIn,
} from "../testing/openai-stand-in.ts";
import { callPublic } from "../testing/public-api-client.ts";
import {
  evalPdfFolder,
  extractPdfPages,
  fixtureStartTimeout,
  type PublicApiFixture,
  startPublicApiFixture,
  testUser,
} from "../testing/public-api-fixture.ts";

const question = "How do I change to another virtual console from the commandline?";
const followUp = "And how do I get back to the GUI?";
const supported = "You can change to another virtual console, such as console 3, from the commandline";

let standIn: OpenAiStandIn;
let fixture: PublicApiFixture;
let key: string;
let releaseModel: () => void = () => {};

function citedMarker(request: StandInRequest): string {
  const line = promptText(request)
    .split("\n")
    .find((text) => /^\[\d+\.\d+\] /.test(text) && /console 3, from the commandline/.test(text));
  if (!line) throw new Error(`no prompt sentence to cite:\n${promptText(request)}`);
  return line.slice(1, line.indexOf("]"));
}

/** The model answers the first question only once released; it finds no answer to the follow-up. */
function scriptedModel(request: StandInRequest) {
  if (promptText(request).includes(`Question: ${followUp}`))
    return { kind: "stream", content: "NO_ANSWER" } as const;
  const released = new Promise<void>((resolve) => {
    releaseModel = resolve;
  });
  return { kind: "stream", content: [released, `${supported} [${citedMarker(request)}].`] } as const;
}

beforeAll(async () => {
  standIn = await startOpenAiStandIn({ script: scriptedModel });
  const small = extractPdfPages(join(evalPdfFolder, "debian-reference.en.pdf"), "30-34", "small.pdf");
  fixture = await startPublicApiFixture({
    process: "spawned",
    files: [{ path: small }],
    env: { CKA_LLM_BASE_URL: standIn.baseUrl, CKA_LLM_MODEL: "test", CKA_LOG: "info" },
  });
  key = (await fixture.createKey(["ask"])).key;
}, fixtureStartTimeout);
afterAll(async () => {
  await fixture?.stop();
  await standIn?.close();
});

async function readLines(response: Response): Promise<AskStreamLine[]> {
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return text
    .trim()
    .split("\n")
    .map((line) => askStreamLineSchema.parse(JSON.parse(line)));
}

describe("a client that disconnects mid-answer", () => {
  it("gets the first line while the model still writes; the answer is finished and kept in session memory", async () => {
    const session = randomUUID();
    const response = await callPublic(fixture.url, {
      path: publicPaths.ask(fixture.assistant.id, session),
      key,
      body: { id_user: testUser, message: question },
    });
    const reader = response.body!.getReader();
    const firstChunk = await reader.read();
    const first = new TextDecoder().decode(firstChunk.value).split("\n")[0]!;
    expect(askStreamLineSchema.parse(JSON.parse(first))).toMatchObject({
      type: "status",
      stage: "retrieving",
    });
    // Cancelling a body that is still arriving closes the connection.
    await reader.cancel();
    await vi.waitFor(() => expect(standIn.requests.length).toBeGreaterThan(0), { timeout: 10_000 });
    releaseModel();

    await vi.waitFor(() => expect(fixture.service.logs()).toMatch(/client left mid-answer/), {
      timeout: 10_000,
    });
    const logs = fixture.service.logs();
    expect(logs).not.toMatch(/"level":"error"/);
    expect(logs).not.toMatch(/\n\s+at |\\n\s+at |"stack"/);
    expect(logs.split("\n").filter((line) => /client left|aborted/i.test(line))).toHaveLength(1);

    const lines = await readLines(
      await callPublic(fixture.url, {
        path: publicPaths.ask(fixture.assistant.id, session),
        key,
        body: { id_user: testUser, message: followUp },
      }),
    );
    expect(lines.at(-1)).toMatchObject({ type: "done" });
    const prompt = promptText(standIn.requests.at(-1)!);
    expect(prompt).toContain(`User: ${question}`);
    expect(prompt).toContain(`Assistant: ${supported}.`);
  }, 30_000);
});
