/**
 * The service as one Hono app over an open runtime: the public API and the sharing area, with the answer
 * engine and the PDF slicer they use. It has no socket: `startServer` listens with it, and route tests call
 * `app.request` on it in the test's own process.
 */
import { createConfiguredReranker } from "./answer/configured-reranker.ts";
import type { AnswerEngine } from "./answer/engine.ts";
import { createExtractiveEngine, defaultEngineSettings } from "./answer/extractive-engine.ts";
import { createFallbackEngine } from "./answer/llm/fallback-engine.ts";
import { createLlmEngine } from "./answer/llm/llm-engine.ts";
import type { ServiceConfig } from "./config.ts";
import { mountAdminRoutes } from "./http/admin-routes.ts";
import { createHttpApp, type ServiceHono } from "./http/app.ts";
import { mountPublicRoutes } from "./http/public-routes.ts";
import { createRateLimiter, createSharedRateLimiter } from "./http/rate-limit.ts";
import type { Logger } from "./logger.ts";
import { createPdfSlicer } from "./pdf-slices/pdf-slicer.ts";
import { createPdfTokens } from "./pdf-slices/pdf-token.ts";
import type { Runtime } from "./runtime.ts";

export interface ServiceApp {
  app: ServiceHono;
  engine: AnswerEngine;
  /** Stops the PDF slicer's workers; the runtime is the caller's to close. */
  close(): Promise<void>;
}

export interface ServiceAppOptions {
  logger: Logger;
  /** The service's own URL, for the share page when `CKA_PUBLIC_URL` is not set. */
  baseUrl(): string;
}

export function createServiceApp(
  runtime: Runtime,
  config: ServiceConfig,
  options: ServiceAppOptions,
): ServiceApp {
  const { logger } = options;
  const extractive = createExtractiveEngine({
    ...defaultEngineSettings,
    ...config.engineSettings,
    ...(config.refusalThreshold !== undefined ? { refusalThreshold: config.refusalThreshold } : {}),
  });
  const engine = config.llm
    ? createFallbackEngine(createLlmEngine({ ...config.llm, logger }), extractive, logger)
    : extractive;
  const slicer = createPdfSlicer({ blobs: runtime.blobs });
  const app = createHttpApp(logger, (routes) => {
    mountPublicRoutes(routes, {
      store: runtime.store,
      indexes: runtime.indexes,
      tokens: createPdfTokens(config.tokenSecret, config.tokenTtlSeconds),
      slicer,
      blobs: runtime.blobs,
      limiter:
        runtime.store.engine === "postgres"
          ? createSharedRateLimiter(config.rateLimitPerMinute, runtime.store.rateWindows)
          : createRateLimiter(config.rateLimitPerMinute),
      logger,
      engine,
      embedder: () => runtime.embedding.current(),
      reranker: createConfiguredReranker(config.remote.rerank, logger),
    });
    mountAdminRoutes(routes, {
      store: runtime.store,
      blobs: runtime.blobs,
      blobSweeper: runtime.blobSweeper,
      indexes: runtime.indexes,
      ingestion: runtime.ingestion,
      adminToken: config.adminToken,
      maxUploadBytes: config.maxUploadBytes,
      baseUrl: () => config.publicUrl ?? options.baseUrl(),
      embedding: runtime.embedding,
    });
  });
  return { app, engine, close: () => slicer.close() };
}
