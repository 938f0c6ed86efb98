/** Replies of a model server stand-in in the shapes real servers use, from a function of each text. */
import { z } from "zod";
import type { ModelServerReply } from "./model-server-stand-in.ts";

const embeddingsRequestSchema = z.object({ model: z.string(), input: z.array(z.string()) });
const rerankRequestSchema = z.object({ query: z.string(), documents: z.array(z.string()) });

export type EmbeddingsRequest = z.infer<typeof embeddingsRequestSchema>;
export type RerankRequest = z.infer<typeof rerankRequestSchema>;

export const readEmbeddingsRequest = (body: unknown): EmbeddingsRequest =>
  embeddingsRequestSchema.parse(body);
export const readRerankRequest = (body: unknown): RerankRequest => rerankRequestSchema.parse(body);

/** OpenAI's `POST /embeddings` reply: one raw vector per input text. */
export function embeddingsReply(
  body: unknown,
  embed: (text: string, model: string) => number[],
): ModelServerReply {
  const request = readEmbeddingsRequest(body);
  const data = request.input.map((text, index) => ({
    object: "embedding",
    index,
    embedding: embed(text, request.model),
  }));
  return { kind: "json", body: { object: "list", data, model: request.model } };
}

/** The Cohere-style `POST /rerank` reply, best first as servers sort it. */
export function rerankReply(
  body: unknown,
  score: (query: string, document: string) => number,
): ModelServerReply {
  const request = readRerankRequest(body);
  const results = request.documents
    .map((document, index) => ({ index, relevance_score: score(request.query, document) }))
    .sort((a, b) => b.relevance_score - a.relevance_score);
  return { kind: "json", body: { id: "rerank-stand-in", results } };
}
