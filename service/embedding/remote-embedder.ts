/** Embeddings from a model server speaking OpenAI's `POST /embeddings` (TEI, vLLM, llama.cpp, Infinity, OpenAI). */
import { z } from "zod";
import { ModelServerError } from "./model-server-error.ts";
import {
  endpointOf,
  inBatches,
  postJson,
  type RequestPolicy,
  requestPolicy,
} from "./model-server-request.ts";
import type { TextEmbedder } from "./text-embedder.ts";

export interface RemoteEmbedderOptions extends Partial<RequestPolicy> {
  /** The API root, e.g. `http://127.0.0.1:8080/v1`: requests go to `{baseUrl}/embeddings`. */
  baseUrl: string;
  model: string;
  apiKey?: string | undefined;
  /** The vectors' length, when known in advance; otherwise learnt from the first reply (0 until then). */
  dimensions?: number | undefined;
  /** Texts per request (default 64). */
  batchSize?: number;
  /** Requests in flight at once for one call (default 2); calls made at the same time each have this many. */
  concurrency?: number;
  fetch?: typeof fetch;
}

const embeddingsReplySchema = z.looseObject({
  data: z.array(
    z.looseObject({
      index: z.number().int().nonnegative(),
      // A string is the little-endian float32 bytes in base64 (`encoding_format: "base64"`).
      embedding: z.union([z.array(z.number()), z.string()]),
    }),
  ),
});

function decodeBase64(encoded: string): number[] {
  const bytes = Buffer.from(encoded, "base64");
  if (bytes.length % 4 !== 0) throw new ModelServerError("protocol", "a base64 embedding is not float32s");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Array.from({ length: bytes.length / 4 }, (_, index) => view.getFloat32(index * 4, true));
}

function unitLength(values: readonly number[]): Float32Array {
  const norm = Math.sqrt(values.reduce((sum, value) => sum + value * value, 0));
  if (!(norm > 0) || !Number.isFinite(norm))
    throw new ModelServerError("protocol", "an embedding has no direction (zero or non-finite length)");
  return Float32Array.from(values, (value) => value / norm);
}

/** The reply's vectors in the order of the texts sent, each of unit length. */
function readEmbeddings(reply: unknown, count: number): Float32Array[] {
  const parsed = embeddingsReplySchema.safeParse(reply);
  if (!parsed.success)
    throw new ModelServerError("protocol", `not an embeddings reply: ${z.prettifyError(parsed.error)}`);
  const { data } = parsed.data;
  if (data.length !== count)
    throw new ModelServerError("protocol", `sent ${count} texts, received ${data.length} embeddings`);
  const ordered = [...data].sort((a, b) => a.index - b.index);
  if (ordered.some((item, position) => item.index !== position))
    throw new ModelServerError("protocol", `the embeddings' indexes are not 0 to ${count - 1}`);
  return ordered.map((item) =>
    unitLength(typeof item.embedding === "string" ? decodeBase64(item.embedding) : item.embedding),
  );
}

/**
 * @example
 * const embedder = createRemoteEmbedder({ baseUrl: "http://127.0.0.1:8080/v1", model: "BAAI/bge-small-en-v1.5" });
 * const [vector] = await embedder.embed(["How do I become root?"]);
 */
export function createRemoteEmbedder(options: RemoteEmbedderOptions): TextEmbedder {
  const policy = requestPolicy(options);
  const batching = { batchSize: options.batchSize ?? 64, concurrency: options.concurrency ?? 2 };
  const endpoint = endpointOf(options, "embeddings");
  let dimensions = options.dimensions;
  return {
    modelId: `remote:${options.model}`,
    get dimensions() {
      return dimensions ?? 0;
    },
    async embed(texts, signal) {
      return inBatches(texts, batching, signal, async (batch, batchSignal) => {
        const body = { model: options.model, input: batch, encoding_format: "float" };
        const vectors = readEmbeddings(await postJson(endpoint, body, policy, batchSignal), batch.length);
        for (const vector of vectors) {
          dimensions ??= vector.length;
          if (vector.length !== dimensions)
            throw new ModelServerError(
              "protocol",
              `${options.model} made a vector of ${vector.length} dimensions, expected ${dimensions}`,
            );
        }
        return vectors;
      });
    },
  };
}
