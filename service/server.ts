/** Starts the service on a host and port and stops it cleanly (in-flight requests finish, storage closes). */
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { createHttpApp } from "./http/app.ts";
import { createLogger } from "./logger.ts";

export interface ServerOptions {
  host: string;
  port: number;
  dataDir: string;
}

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const logger = createLogger("service");
  const app = createHttpApp(logger, () => {});
  const server = serve({ fetch: app.fetch, hostname: options.host, port: options.port });
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  const address = server.address() as AddressInfo;
  const url = `http://${options.host}:${address.port}`;
  logger.info("listening", { url, dataDir: options.dataDir });
  return {
    url,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        if ("closeIdleConnections" in server) server.closeIdleConnections();
      }),
  };
}
