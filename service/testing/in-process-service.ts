/**
 * The service in the test's own process: its runtime on a fresh data folder (PGlite from the template) and
 * its Hono app, reached through `fetch`, which calls `app.request` with no socket. For route tests; a test
 * about the process itself (a signal, a crash, bytes the HTTP parser sees) spawns one instead.
 */
import { join } from "node:path";
import { loadConfig } from "../config.ts";
import { createLogger } from "../logger.ts";
import { openRuntime, type Runtime } from "../runtime.ts";
import { createServiceApp, type ServiceApp } from "../service-app.ts";
import { seedPgliteDir } from "./pglite-template.ts";
import { temporaryDirectory } from "./temporary-directory.ts";

export interface InProcessService {
  /** The origin requests name; nothing listens there, `fetch` answers them. */
  readonly url: string;
  readonly dataDir: string;
  readonly adminToken: string;
  /** A fetch that the service's app answers in this process. */
  readonly fetch: typeof fetch;
  /** Closes the app and the runtime, then opens both again on the same data folder (a clean restart). */
  restart(): Promise<void>;
  close(): Promise<void>;
}

const origin = "http://service.test";

export async function openInProcessService(
  options: { env?: Record<string, string> } = {},
): Promise<InProcessService> {
  const dataDir = temporaryDirectory("cka-test-");
  seedPgliteDir(join(dataDir, "pglite"));
  const environment = { ...process.env, CKA_LOG: "quiet", CKA_EMBEDDINGS: "off", ...options.env };
  const logger = createLogger("service", environment);
  const config = loadConfig(dataDir, environment);
  let runtime: Runtime;
  let service: ServiceApp;
  const open = async () => {
    runtime = await openRuntime(config, logger);
    service = createServiceApp(runtime, config, { logger, baseUrl: () => origin });
  };
  const close = async () => {
    await service.close();
    await runtime.close();
  };
  await open();
  return {
    url: origin,
    dataDir,
    adminToken: config.adminToken,
    fetch: (input, init) =>
      Promise.resolve(service.app.request(input instanceof URL ? input.href : input, init)),
    async restart() {
      await close();
      await open();
    },
    close,
  };
}
