/** Listens with the service app on a host and port, and stops it cleanly (in-flight work finishes, storage closes). */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { getRequestListener } from "@hono/node-server";
import { loadConfig } from "./config.ts";
import { answerAdapterError, answerClientError } from "./http/client-error.ts";
import { settleUnreadBody } from "./http/unread-body.ts";
import { createLogger } from "./logger.ts";
import { openRuntime } from "./runtime.ts";
import { createServiceApp } from "./service-app.ts";

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
  let url = "";
  const service = createServiceApp(runtime, config, { logger, baseUrl: () => url });
  // The adapter's listener on Node's own server: `serve` does not pass on an errorHandler.
  const server = createServer(
    getRequestListener(
      async (request, bindings) =>
        settleUnreadBody(bindings.incoming, await service.app.fetch(request, bindings)),
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
    await service.close();
    await runtime.close();
    throw error;
  }
  const address = server.address() as AddressInfo;
  url = `http://${options.host}:${address.port}`;
  logger.info("listening", {
    url,
    dataDir: options.dataDir,
    storage: runtime.store.engine,
    engine: service.engine.name,
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
      await service.close();
      await runtime.close();
    },
  };
}
