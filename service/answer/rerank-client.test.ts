// The rerank server here is a local stand-in (service/testing/model-server-stand-in.ts) answering in the
// shapes real servers use: no reranker can run in this environment.
import { afterEach, describe, expect, it } from "vitest";
import {
  type ModelServerReply,
  type ModelServerScript,
  type ModelServerStandIn,
  startModelServerStandIn,
} from "../testing/model-server-stand-in.ts";
import { createRemoteReranker, type RemoteRerankerOptions } from "./rerank-client.ts";

let standIn: ModelServerStandIn | undefined;
afterEach(async () => {
  await standIn?.close();
  standIn = undefined;
});

async function serve(script: ModelServerScript): Promise<ModelServerStandIn> {
  standIn = await startModelServerStandIn(script);
  return standIn;
}

const fast = { timeoutMs: 1_000, backoffBaseMs: 10, backoffCeilingMs: 40 };
const cohere = (server: ModelServerStandIn, options: Partial<RemoteRerankerOptions> = {}) =>
  createRemoteReranker({
    baseUrl: server.baseUrl,
    model: "test-reranker",
    apiKey: "sk-test",
    ...fast,
    ...options,
  });
const tei = (server: ModelServerStandIn) =>
  createRemoteReranker({ baseUrl: server.origin, protocol: "tei", ...fast });

const question = "How do I become root?";
const documents = ["Type su -l at a prompt.", "Debian has six consoles.", "Type exit to leave.", "Use sudo."];

/** "document N" scores N / 100. */
const scoreOf = (document: string) => Number(document.split(" ")[1]) / 100;
const numbered = (count: number) => Array.from({ length: count }, (_, index) => `document ${index}`);

/** The Cohere-style reply: best first, as servers sort them, so only `index` places each score. */
const cohereReply = (body: unknown, key: "results" | "data" = "results"): ModelServerReply => {
  const sent = (body as { documents: string[] }).documents;
  const results = sent
    .map((document, index) => ({ index, relevance_score: scoreOf(document), document: { text: document } }))
    .sort((a, b) => b.relevance_score - a.relevance_score);
  return { kind: "json", body: { id: "r-1", [key]: results, meta: { api_version: { version: "2" } } } };
};

describe("the remote reranker, Cohere-style (Cohere, Jina, vLLM, llama.cpp, Infinity)", () => {
  it("returns one score per document, in the documents' order", async () => {
    const server = await serve(() => ({
      kind: "json",
      body: {
        results: [
          { index: 0, relevance_score: 0.91 },
          { index: 3, relevance_score: 0.4 },
          { index: 2, relevance_score: 0.12 },
          { index: 1, relevance_score: 0.01 },
        ],
      },
    }));
    const reranker = cohere(server);
    expect(reranker.name).toBe("remote:test-reranker");
    expect(await reranker.rerank(question, documents)).toEqual([0.91, 0.01, 0.12, 0.4]);
    const request = server.requests[0]!;
    expect(request.path).toBe("/v1/rerank");
    expect(request.body).toEqual({ model: "test-reranker", query: question, documents, top_n: 4 });
    expect(request.headers.authorization).toBe("Bearer sk-test");
  });

  it("scores a document the server left out of a top_n-limited reply -Infinity", async () => {
    const server = await serve(() => ({
      kind: "json",
      body: {
        results: [
          { index: 2, relevance_score: 0.7 },
          { index: 0, relevance_score: 0.3 },
        ],
      },
    }));
    expect(await cohere(server).rerank(question, documents)).toEqual([
      0.3,
      Number.NEGATIVE_INFINITY,
      0.7,
      Number.NEGATIVE_INFINITY,
    ]);
  });

  it("reads older Infinity replies, which list the scores under data", async () => {
    const server = await serve((request) => cohereReply(request.body, "data"));
    expect(await cohere(server).rerank(question, numbered(3))).toEqual([0, 0.01, 0.02]);
  });

  it("sends 70 documents in requests of at most 32 and puts each score back in place", async () => {
    const server = await serve((request) => cohereReply(request.body));
    const scores = await cohere(server).rerank(question, numbered(70));
    expect(scores).toEqual(numbered(70).map(scoreOf));
    const sizes = server.requests.map(
      (request) => (request.body as { documents: string[] }).documents.length,
    );
    expect(sizes.sort((a, b) => a - b)).toEqual([6, 32, 32]);
    for (const request of server.requests)
      expect(request.body).toMatchObject({
        query: question,
        top_n: (request.body as { documents: string[] }).documents.length,
      });
  });

  it("keeps at most `concurrency` requests in flight", async () => {
    const server = await serve(
      (request) => ({ ...cohereReply(request.body), delayMs: 20 }) as ModelServerReply,
    );
    await cohere(server, { batchSize: 5, concurrency: 3 }).rerank(question, numbered(40));
    expect(server.requests).toHaveLength(8);
    expect(server.peakInFlight).toBe(3);
  });

  it("sends no request for no documents", async () => {
    const server = await serve((request) => cohereReply(request.body));
    expect(await cohere(server).rerank(question, [])).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });

  it("retries a 503 and succeeds once the server recovers", async () => {
    const server = await serve((request, sequence) =>
      sequence === 0 ? { kind: "text", status: 503, body: "warming up" } : cohereReply(request.body),
    );
    expect(await cohere(server).rerank(question, numbered(2))).toEqual([0, 0.01]);
    expect(server.requests).toHaveLength(2);
  });

  it("does not retry a 422", async () => {
    const server = await serve(() => ({ kind: "text", status: 422, body: '{"detail":"model not found"}' }));
    await expect(cohere(server).rerank(question, documents)).rejects.toMatchObject({
      failure: "http",
      status: 422,
    });
    expect(server.requests).toHaveLength(1);
  });

  it("times out a server that never answers", async () => {
    const server = await serve(() => ({ kind: "hang" }));
    await expect(cohere(server, { timeoutMs: 200 }).rerank(question, documents)).rejects.toMatchObject({
      failure: "timeout",
    });
  });

  it.each<[string, unknown]>([
    ["a TEI bare array", [{ index: 0, score: 0.5 }]],
    ["results without scores", { results: [{ index: 0 }] }],
    ["an index past the documents sent", { results: [{ index: 4, relevance_score: 0.5 }] }],
    [
      "the same index twice",
      {
        results: [
          { index: 1, relevance_score: 0.5 },
          { index: 1, relevance_score: 0.4 },
        ],
      },
    ],
  ])("fails with a protocol error on %s", async (_name, body) => {
    const server = await serve(() => ({ kind: "json", body }));
    await expect(cohere(server).rerank(question, documents)).rejects.toMatchObject({ failure: "protocol" });
    expect(server.requests).toHaveLength(1);
  });
});

describe("the remote reranker, TEI", () => {
  it("posts texts to {baseUrl}/rerank and reads the bare array, in the documents' order", async () => {
    const server = await serve(() => ({
      kind: "json",
      body: [
        { index: 1, score: 0.98 },
        { index: 3, score: 0.5 },
        { index: 0, score: 0.02 },
        { index: 2, score: 0.001 },
      ],
    }));
    const reranker = tei(server);
    expect(reranker.name).toBe("remote:tei");
    expect(await reranker.rerank(question, documents)).toEqual([0.02, 0.98, 0.001, 0.5]);
    const request = server.requests[0]!;
    expect(request.path).toBe("/rerank");
    expect(request.body).toEqual({ query: question, texts: documents, raw_scores: false, truncate: true });
    expect(request.headers.authorization).toBeUndefined();
  });

  it("fails with a protocol error on a Cohere-style reply", async () => {
    const server = await serve(() => ({
      kind: "json",
      body: { results: [{ index: 0, relevance_score: 1 }] },
    }));
    await expect(tei(server).rerank(question, documents)).rejects.toMatchObject({ failure: "protocol" });
  });
});
