/** A search of an assistant's sources on the server (rag), as the search pages run it. */
import "server-only";
import { z } from "zod";
import { CitedApiError, limits } from "@/sdk/core/index.ts";
import type { RetrievalResult } from "@/sdk/core/wire.ts";
import type { ServiceClient } from "@/sdk/server/index.ts";

export const searchParamsSchema = z.object({
  q: z.string().trim().max(limits.queryLength.max).catch(""),
  datasource: z.string().catch(""),
});

export type SearchOutcome =
  | { kind: "none" }
  | { kind: "results"; results: RetrievalResult[] }
  | { kind: "error"; message: string; requestId: string | null };

/** The ten passages that match `query` best, in `datasource` ("" for all); nothing is asked for an empty query. */
export async function searchPassages(
  client: ServiceClient,
  query: string,
  datasource: string,
  userId: string,
): Promise<SearchOutcome> {
  if (query === "") return { kind: "none" };
  // The same kind of id the route handler gives its requests: logged here, shown to the person, sent to the service.
  const requestId = `req_${crypto.randomUUID().replaceAll("-", "")}`;
  try {
    const { results } = await client.rag(
      { query, id_user: userId, max_results: 10, ...(datasource ? { datasource_ids: [datasource] } : {}) },
      { requestId },
    );
    return { kind: "results", results };
  } catch (error) {
    if (!CitedApiError.isInstance(error)) throw error;
    console.error("search", requestId, error);
    const message =
      error.status === 429
        ? "Too many searches at once. Try again shortly."
        : error.status === 422
          ? (error.problem?.detail ?? "That search cannot be run as it is.")
          : "The knowledge service is not answering right now. Try again in a moment.";
    return { kind: "error", message, requestId: error.requestId ?? requestId };
  }
}
