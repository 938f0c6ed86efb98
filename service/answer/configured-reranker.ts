/** The reranker CKA_RERANK_BASE_URL names, with deadlines fit for a question being answered, and its failures logged. */
import { ModelServerError } from "../embedding/model-server-error.ts";
import type { RemoteRerankConfig } from "../embedding/remote-config.ts";
import type { Reranker } from "../embedding/text-embedder.ts";
import type { Logger } from "../logger.ts";
import { createRemoteReranker } from "./rerank-client.ts";

/** The asker waits for it: a hung server costs one 5 s attempt, a refused connection one quick retry. */
const questionPolicy = { timeoutMs: 5_000, maxRetries: 1, backoffBaseMs: 200, backoffCeilingMs: 1_000 };

/** Null without a configured server; a failure is logged here and thrown on, for the ask to go on without it. */
export function createConfiguredReranker(config: RemoteRerankConfig | null, logger: Logger): Reranker | null {
  if (!config) return null;
  const { baseUrl, apiKey } = config;
  const server = createRemoteReranker(
    config.protocol === "tei"
      ? { baseUrl, apiKey, protocol: "tei", model: config.model, ...questionPolicy }
      : { baseUrl, apiKey, protocol: "cohere", model: config.model, ...questionPolicy },
  );
  return {
    name: server.name,
    async rerank(query, documents, signal) {
      try {
        return await server.rerank(query, documents, signal);
      } catch (error) {
        if (error instanceof ModelServerError)
          logger.warn("the rerank server failed; choosing sentences without it", {
            baseUrl,
            error: error.message,
          });
        throw error;
      }
    },
  };
}
