/**
 * Scores documents against a query with a model server: the Cohere-style `POST /rerank` that Cohere, Jina,
 * vLLM, llama.cpp and Infinity share, or Hugging Face TEI's own.
 */
import { z } from "zod";
import { ModelServerError } from "../embedding/model-server-error.ts";
import {
  endpointOf,
  inBatches,
  postJson,
  type RequestPolicy,
  requestPolicy,
} from "../embedding/model-server-request.ts";
import type { Reranker } from "../embedding/text-embedder.ts";

interface RerankerCommonOptions extends Partial<RequestPolicy> {
  /** The API root: requests go to `{baseUrl}/rerank` (e.g. `http://127.0.0.1:7997` or `https://api.cohere.com/v2`). */
  baseUrl: string;
  apiKey?: string | undefined;
  /** Documents per request (default 32). */
  batchSize?: number;
  /** Requests in flight at once for one call (default 2); calls made at the same time each have this many. */
  concurrency?: number;
  fetch?: typeof fetch;
}

/**
 * @example
 * createRemoteReranker({ baseUrl: "http://127.0.0.1:7997", model: "BAAI/bge-reranker-base" });
 * createRemoteReranker({ baseUrl: "http://127.0.0.1:8081", protocol: "tei" });
 */
export type RemoteRerankerOptions = RerankerCommonOptions &
  (
    | { protocol?: "cohere" | undefined; model: string }
    /** A TEI server serves one model, named at its start: `model` only names the scores. */
    | { protocol: "tei"; model?: string | undefined }
  );

const scoreIndex = z.number().int().nonnegative();
const cohereResults = z.array(z.looseObject({ index: scoreIndex, relevance_score: z.number() }));
const cohereReplySchema = z.union([
  z.looseObject({ results: cohereResults }).transform((reply) => reply.results),
  // Older Infinity releases answered under `data`.
  z.looseObject({ data: cohereResults }).transform((reply) => reply.data),
]);
const teiReplySchema = z.array(z.looseObject({ index: scoreIndex, score: z.number() }));

interface IndexedScore {
  index: number;
  score: number;
}

function readScores(reply: unknown, protocol: "cohere" | "tei"): IndexedScore[] {
  if (protocol === "tei") {
    const parsed = teiReplySchema.safeParse(reply);
    if (!parsed.success)
      throw new ModelServerError("protocol", `not a TEI rerank reply: ${z.prettifyError(parsed.error)}`);
    return parsed.data;
  }
  const parsed = cohereReplySchema.safeParse(reply);
  if (!parsed.success)
    throw new ModelServerError("protocol", `not a rerank reply: ${z.prettifyError(parsed.error)}`);
  return parsed.data.map((result) => ({ index: result.index, score: result.relevance_score }));
}

/** One score per document sent, in their order; a document the server left out scores -Infinity. */
function inDocumentOrder(scores: readonly IndexedScore[], count: number): number[] {
  const ordered = new Array<number>(count).fill(Number.NEGATIVE_INFINITY);
  const seen = new Set<number>();
  for (const { index, score } of scores) {
    if (index >= count || seen.has(index))
      throw new ModelServerError("protocol", `a rerank result has index ${index}, sent ${count} documents`);
    seen.add(index);
    ordered[index] = score;
  }
  return ordered;
}

export function createRemoteReranker(options: RemoteRerankerOptions): Reranker {
  const protocol = options.protocol ?? "cohere";
  const policy = requestPolicy(options);
  const batching = { batchSize: options.batchSize ?? 32, concurrency: options.concurrency ?? 2 };
  const endpoint = endpointOf(options, "rerank");
  const body = (query: string, documents: readonly string[]) =>
    protocol === "tei"
      ? // Without `truncate`, TEI refuses a document longer than the model's window (TEI #107).
        { query, texts: documents, raw_scores: false, truncate: true }
      : { model: options.model, query, documents, top_n: documents.length };
  return {
    name: `remote:${options.model ?? protocol}`,
    // Batches can be scored apart: each score belongs to one query-document pair, not to the batch.
    async rerank(query, documents, signal) {
      return inBatches(documents, batching, signal, async (batch, batchSignal) => {
        const reply = await postJson(endpoint, body(query, batch), policy, batchSignal);
        return inDocumentOrder(readScores(reply, protocol), batch.length);
      });
    },
  };
}
