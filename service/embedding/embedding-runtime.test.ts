// The embeddings server is a local stand-in (service/testing/model-server-stand-in.ts): no model server
// can run here.
import { afterEach, describe, expect, it } from "vitest";
import type { Logger } from "../logger.ts";
import { embeddingsReply } from "../testing/model-server-replies.ts";
import { type ModelServerStandIn, startModelServerStandIn } from "../testing/model-server-stand-in.ts";
import { type EmbeddingRuntime, startEmbedding } from "./embedding-runtime.ts";

const warnings: string[] = [];
const logger: Logger = {
  info: () => undefined,
  warn: (message) => void warnings.push(message),
  error: (message) => void warnings.push(message),
};

let standIn: ModelServerStandIn | undefined;
let runtime: EmbeddingRuntime | undefined;
afterEach(async () => {
  await runtime?.close();
  await standIn?.close();
  runtime = undefined;
  standIn = undefined;
  warnings.length = 0;
});

/** A server that is up unless `down` says otherwise. */
async function server(down: (sequence: number) => boolean): Promise<ModelServerStandIn> {
  standIn = await startModelServerStandIn((request, sequence) =>
    down(sequence)
      ? { kind: "json", status: 400, body: { error: "model is still loading" } }
      : embeddingsReply(request.body, () => [1, 2, 3, 4]),
  );
  return standIn;
}

function start(baseUrl: string): EmbeddingRuntime {
  runtime = startEmbedding(
    "/nonexistent",
    { enabled: true, folder: undefined, hubUrl: null, remote: { baseUrl, model: "m", apiKey: undefined } },
    logger,
    { probeIntervalMs: 50, cooldownMs: 300 },
  );
  return runtime;
}

const until = async (condition: () => boolean) => {
  const deadline = Date.now() + 3_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in 3 s");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe("embeddings from a model server", () => {
  it("answer by words while the server does not answer at start, and by meaning once it does", async () => {
    const { baseUrl } = await server((sequence) => sequence < 2);
    const embedding = start(baseUrl);

    await until(() => embedding.status().state === "off");
    expect(embedding.current()).toEqual({ unavailable: expect.stringContaining("400") });
    expect(embedding.vectors()).toBeNull();
    expect(embedding.status().detail).toContain("does not answer");

    const passages = await embedding.ready;
    expect(passages?.dimensions).toBe(4);
    expect(embedding.vectors()).toEqual({ model: "remote:m", dimensions: 4 });
    expect(embedding.status()).toMatchObject({ state: "ready", model: "remote:m" });
    // The same failure, seen again by the next probe, is logged once.
    expect(warnings).toEqual(["answering lexically until the embeddings server answers"]);
  });

  it("skip the server for a while after it fails a question, then ask it again", async () => {
    let failing = false;
    const { baseUrl } = await server(() => failing);
    const embedding = start(baseUrl);
    await embedding.ready;
    const questions = embedding.current();
    if (!questions || "unavailable" in questions) throw new Error("no question embedder once ready");

    failing = true;
    await expect(questions.embed(["a question"])).rejects.toThrow("400");
    expect(embedding.current()).toEqual({ unavailable: expect.stringContaining("400") });
    expect(embedding.status().state).toBe("off");

    failing = false;
    await until(() => embedding.current() === questions);
    expect(await questions.embed(["a question"])).toHaveLength(1);
    expect(embedding.status().state).toBe("ready");
  });

  it("stop waiting for a server that never answered when the service stops", async () => {
    const { baseUrl } = await server(() => true);
    const embedding = start(baseUrl);
    await until(() => embedding.status().state === "off");

    embedding.stopStarting();
    expect(await embedding.ready).toBeNull();
    const probes = standIn?.requests.length;
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(standIn?.requests.length).toBe(probes);
  });

  it("stay off, and ask no server, when CKA_EMBEDDINGS=off", async () => {
    const { baseUrl } = await server(() => false);
    runtime = startEmbedding(
      "/nonexistent",
      { enabled: false, folder: undefined, hubUrl: null, remote: { baseUrl, model: "m", apiKey: undefined } },
      logger,
    );
    expect(await runtime.ready).toBeNull();
    expect(runtime.status().state).toBe("off");
    expect(standIn?.requests).toHaveLength(0);
  });
});
