/** Starts the service on a host and port and stops it cleanly (in-flight work finishes, storage closes). */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { getRequestListener } from "@hono/node-server";
import { createConfiguredReranker } from "./answer/configured-reranker.ts";
import { createExtractiveEngine, defaultEngineSettings } from "./answer/extractive-engine.ts";
import { createFallbackEngine } from "./answer/llm/fallback-engine.ts";
import { createLlmEngine } from "./answer/llm/llm-engine.ts";
import { loadConfig } from "./config.ts";
import { mountAdminRoutes } from "./http/admin-routes.ts";
import { createHttpApp } from "./http/app.ts";
import { answerAdapterError, answerClientError } from "./http/client-error.ts";
import { mountPublicRoutes } from "./http/public-routes.ts";
import { createRateLimiter, createSharedRateLimiter } from "./http/rate-limit.ts";
import { settleUnreadBody } from "./http/unread-body.ts";
import { createLogger } from "./logger.ts";
import { createPdfSlicer } from "./pdf/pdf-slicer.ts";
import { createPdfTokens } from "./pdf/pdf-token.ts";
import { openRuntime } from "./runtime.ts";

export interface ServerOptions {
  host: string;
  port: number;
  dataDir: string;
}

export interface RunningServer {
  url: string;
  adminToken: string;
  close(): Promise<void>;
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const logger = createLogger("service");
  const config = loadConfig(options.dataDir);
  const runtime = await openRuntime(config, logger);
  const extractive = createExtractiveEngine({
    ...defaultEngineSettings,
    ...config.engineSettings,
    ...(config.refusalThreshold !== undefined ? { refusalThreshold: config.refusalThreshold } : {}),
  });
  const engine = config.llm
    ? createFallbackEngine(createLlmEngine({ ...config.llm, logger }), extractive, logger)
    : extractive;
  const slicer = createPdfSlicer({ blobs: runtime.blobs });
  let url = "";
  const app = createHttpApp(logger, (routes) => {
    mountPublicRoutes(routes, {
      store: runtime.store,
      indexes: runtime.indexes,
      tokens: createPdfTokens(config.tokenSecret, config.tokenTtlSeconds),
      slicer,
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
      baseUrl: () => config.publicUrl ?? url,
      embedding: runtime.embedding,
    });
  });
  // The adapter's listener on Node's own server: `serve` does not pass on an errorHandler.
  const server = createServer(
    getRequestListener(
      async (request, bindings) => settleUnreadBody(bindings.incoming, await app.fetch(request, bindings)),
      { hostname: options.host, errorHandler: (error) => answerAdapterError(error, logger) },
    ),
  );
  server.listen(options.port, options.host);
  server.on("clientError", (error: Error, socket: Duplex) => answerClientError(error, socket, logger));
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("listening", resolve);
      server.once("error", reject);
    });
  } catch (error) {
    await slicer.close();
    await runtime.close();
    throw error;
  }
  const address = server.address() as AddressInfo;
  url = `http://${options.host}:${address.port}`;
  logger.info("listening", {
    url,
    dataDir: options.dataDir,
    storage: runtime.store.engine,
    engine: engine.name,
    ...(config.llm ? { model: config.llm.model } : {}),
    ...(config.remote.rerank ? { reranker: config.remote.rerank.baseUrl } : {}),
  });
  return {
    url,
    adminToken: config.adminToken,
    close: async () => {
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        if ("closeIdleConnections" in server) server.closeIdleConnections();
      });
      await slicer.close();
      await runtime.close();
    },
  };
}
