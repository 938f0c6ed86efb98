// The model server here is a local stand-in speaking OpenAI's embeddings protocol
// (service/testing/model-server-stand-in.ts): no embedding server can run in this environment.
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  type ModelServerReply,
  type ModelServerScript,
  type ModelServerStandIn,
  refusedBaseUrl,
  startModelServerStandIn,
} from "../testing/model-server-stand-in.ts";
import { ModelServerError } from "./model-server-error.ts";
import { createRemoteEmbedder, type RemoteEmbedderOptions } from "./remote-embedder.ts";

let standIn: ModelServerStandIn | undefined;
afterEach(async () => {
  await standIn?.close();
  standIn = undefined;
});

const texts = (count: number) => Array.from({ length: count }, (_, index) => `text ${index}`);

/** The raw vector the stand-in gives "text N": its direction names N. */
const rawVector = (text: string) => [Number(text.split(" ")[1]), 1, 2];

/** An embeddings reply for the texts of `request`, listed last text first (only `index` gives the order). */
const embeddings = (input: unknown, vector = rawVector): ModelServerReply => {
  const sent = (input as { input: string[] }).input;
  const data = sent.map((text, index) => ({ object: "embedding", index, embedding: vector(text) }));
  return { kind: "json", body: { object: "list", data: data.reverse(), model: "test-embedder" } };
};

const answering: ModelServerScript = (request) => embeddings(request.body);

async function serve(script: ModelServerScript): Promise<ModelServerStandIn> {
  standIn = await startModelServerStandIn(script);
  return standIn;
}

const embedder = (server: { baseUrl: string }, options: Partial<RemoteEmbedderOptions> = {}) =>
  createRemoteEmbedder({
    baseUrl: server.baseUrl,
    model: "test-embedder",
    apiKey: "sk-test",
    timeoutMs: 1_000,
    backoffBaseMs: 10,
    backoffCeilingMs: 40,
    ...options,
  });

const length = (vector: Float32Array) => Math.hypot(...vector);

describe("the remote embedder (against a local stand-in of POST /embeddings)", () => {
  it("sends 150 texts in requests of at most 64 and returns one unit vector per text, in order", async () => {
    const server = await serve(answering);
    const remote = embedder(server);
    expect(remote.modelId).toBe("remote:test-embedder");
    expect(remote.dimensions).toBe(0);

    const vectors = await remote.embed(texts(150));

    expect(
      server.requests
        .map((request) => (request.body as { input: string[] }).input.length)
        .sort((a, b) => a - b),
    ).toEqual([22, 64, 64]);
    expect(vectors).toHaveLength(150);
    vectors.forEach((vector, index) => {
      expect(length(vector)).toBeCloseTo(1, 5);
      expect(vector[0]! / vector[1]!).toBeCloseTo(index, 3);
    });
    expect(remote.dimensions).toBe(3);
    const first = server.requests[0]!;
    expect(first.path).toBe("/v1/embeddings");
    expect(first.body).toMatchObject({ model: "test-embedder", encoding_format: "float" });
    expect(first.headers.authorization).toBe("Bearer sk-test");
  });

  it("sends no request for no texts", async () => {
    const server = await serve(answering);
    expect(await embedder(server).embed([])).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });

  it("reads vectors sent as base64 float32s", async () => {
    const server = await serve((request) => {
      const sent = (request.body as { input: string[] }).input;
      const data = sent.map((text, index) => ({
        index,
        embedding: Buffer.from(Float32Array.from(rawVector(text)).buffer).toString("base64"),
      }));
      return { kind: "json", body: { data } };
    });
    const vectors = await embedder(server).embed(texts(3));
    expect(vectors.map((vector) => Math.round(vector[0]! / vector[1]!))).toEqual([0, 1, 2]);
    expect(length(vectors[2]!)).toBeCloseTo(1, 5);
  });

  it.each([1, 2, 3])("never has more than %i requests in flight", async (concurrency) => {
    const server = await serve((request) => ({ ...embeddings(request.body), delayMs: 20 }));
    const vectors = await embedder(server, { batchSize: 10, concurrency }).embed(texts(100));
    expect(vectors).toHaveLength(100);
    expect(server.requests).toHaveLength(10);
    expect(server.peakInFlight).toBe(concurrency);
  });

  it("keeps two requests in flight by default", async () => {
    const server = await serve((request) => ({ ...embeddings(request.body), delayMs: 20 }));
    await createRemoteEmbedder({ baseUrl: server.baseUrl, model: "m" }).embed(texts(300));
    expect(server.requests).toHaveLength(5);
    expect(server.peakInFlight).toBe(2);
  });

  it("retries a 503 and succeeds once the server recovers", async () => {
    const server = await serve((request, sequence) =>
      sequence === 0 ? { kind: "text", status: 503, body: "loading model" } : embeddings(request.body),
    );
    const vectors = await embedder(server).embed(texts(2));
    expect(vectors).toHaveLength(2);
    expect(server.requests).toHaveLength(2);
  });

  it("retries a connection the server cut", async () => {
    const server = await serve((request, sequence) =>
      sequence === 0 ? { kind: "drop" } : embeddings(request.body),
    );
    expect(await embedder(server).embed(texts(2))).toHaveLength(2);
    expect(server.requests).toHaveLength(2);
  });

  it("waits as long as a 429's Retry-After asks before trying again", async () => {
    const server = await serve((request, sequence) =>
      sequence === 0
        ? { kind: "text", status: 429, headers: { "Retry-After": "1" }, body: "slow down" }
        : embeddings(request.body),
    );
    expect(await embedder(server).embed(texts(1))).toHaveLength(1);
    const [first, second] = server.requests;
    expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(950);
  });

  it("fails at once when Retry-After asks for longer than allowed", async () => {
    const server = await serve(() => ({
      kind: "text",
      status: 429,
      headers: { "Retry-After": "120" },
      body: "quota",
    }));
    const failing = embedder(server).embed(texts(1));
    await expect(failing).rejects.toMatchObject({ failure: "http", status: 429 });
    expect(server.requests).toHaveLength(1);
  });

  it("gives up after maxRetries when the server keeps failing", async () => {
    const server = await serve(() => ({ kind: "text", status: 502, body: "bad gateway" }));
    const failing = embedder(server, { maxRetries: 2 }).embed(texts(1));
    await expect(failing).rejects.toBeInstanceOf(ModelServerError);
    await expect(failing).rejects.toMatchObject({ failure: "http", status: 502 });
    expect(server.requests).toHaveLength(3);
  });

  it("does not retry a 400, and says what the server said", async () => {
    const server = await serve(() => ({
      kind: "text",
      status: 400,
      body: '{"error":"inputs must have less than 512 tokens"}',
    }));
    const failing = embedder(server).embed(texts(1));
    await expect(failing).rejects.toMatchObject({
      failure: "http",
      status: 400,
      message: expect.stringContaining("less than 512 tokens"),
    });
    expect(server.requests).toHaveLength(1);
  });

  it("times out a server that never answers", async () => {
    const server = await serve(() => ({ kind: "hang" }));
    const started = performance.now();
    await expect(embedder(server, { timeoutMs: 200 }).embed(texts(1))).rejects.toMatchObject({
      failure: "timeout",
    });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(server.requests).toHaveLength(1);
  });

  it("reports a server nothing listens on as a connection failure", async () => {
    const failing = embedder({ baseUrl: await refusedBaseUrl() }, { maxRetries: 1 }).embed(texts(1));
    await expect(failing).rejects.toMatchObject({
      failure: "connection",
      message: expect.stringContaining("ECONNREFUSED"),
    });
  });

  const reply = (body: unknown): ModelServerReply => ({ kind: "json", body });
  it.each<[string, ModelServerScript]>([
    ["a reply that is not JSON", () => ({ kind: "text", body: '{"data": [' })],
    ["a reply without data", () => reply({ embeddings: [[1, 2, 3]] })],
    ["a vector that is not numbers", () => reply({ data: [{ index: 0, embedding: ["1", "2"] }] })],
    ["fewer vectors than texts", () => reply({ data: [{ index: 0, embedding: [1, 2, 3] }] })],
    [
      "the same index twice",
      () =>
        reply({
          data: [
            { index: 0, embedding: [1, 2, 3] },
            { index: 0, embedding: [1, 2, 3] },
          ],
        }),
    ],
    [
      "vectors of different lengths",
      () =>
        reply({
          data: [
            { index: 0, embedding: [1, 2, 3] },
            { index: 1, embedding: [1, 2] },
          ],
        }),
    ],
    [
      "a zero vector",
      () =>
        reply({
          data: [
            { index: 0, embedding: [1, 2, 3] },
            { index: 1, embedding: [0, 0, 0] },
          ],
        }),
    ],
  ])("fails with a protocol error, without retrying, on %s", async (_name, script) => {
    const server = await serve(script);
    const failing = embedder(server).embed(texts(2));
    await expect(failing).rejects.toMatchObject({ failure: "protocol" });
    expect(server.requests).toHaveLength(1);
  });

  it("fails with a protocol error when a later reply changes the vectors' length", async () => {
    const server = await serve((request, sequence) =>
      embeddings(request.body, sequence === 0 ? rawVector : (text) => [...rawVector(text), 4]),
    );
    const failing = embedder(server, { batchSize: 1, concurrency: 1 }).embed(texts(2));
    await expect(failing).rejects.toMatchObject({ failure: "protocol" });
  });

  it("fails with a protocol error when the vectors are not of the length it was given", async () => {
    const server = await serve(answering);
    const remote = embedder(server, { dimensions: 384 });
    expect(remote.dimensions).toBe(384);
    await expect(remote.embed(texts(1))).rejects.toMatchObject({
      failure: "protocol",
      message: expect.stringContaining("expected 384"),
    });
  });

  it("stops its requests in flight, and starts no more, when the signal aborts", async () => {
    const server = await serve(() => ({ kind: "hang" }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const failing = embedder(server, { batchSize: 10 }).embed(texts(50), controller.signal);
    await expect(failing).rejects.toMatchObject({ name: "AbortError" });
    await vi.waitFor(() => expect(server.abandoned).toBe(2));
    expect(server.requests).toHaveLength(2);
  });

  it("stops waiting to retry when the signal aborts", async () => {
    const server = await serve(() => ({
      kind: "text",
      status: 503,
      headers: { "Retry-After": "1" },
      body: "busy",
    }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = performance.now();
    await expect(embedder(server).embed(texts(1), controller.signal)).rejects.toMatchObject({
      name: "AbortError",
    });
    expect(performance.now() - started).toBeLessThan(800);
    expect(server.requests).toHaveLength(1);
  });

  it("abandons the other requests in flight when one batch fails", async () => {
    const server = await serve((_request, sequence) =>
      sequence === 0 ? { kind: "hang" } : { kind: "text", status: 400, body: "bad" },
    );
    const failing = embedder(server, { batchSize: 1 }).embed(texts(5));
    await expect(failing).rejects.toMatchObject({ failure: "http", status: 400 });
    await vi.waitFor(() => expect(server.abandoned).toBe(1));
    expect(server.requests).toHaveLength(2);
  });
});
