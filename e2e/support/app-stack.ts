/**
 * The whole app as a person meets it, for the app's end-to-end tests: a real service process with
 * the sample corpus, a counting proxy in front of it, and the production build under `next start`
 * configured for that service. Everything binds 127.0.0.1 on free ports and is removed on `stop`.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import { join, resolve } from "node:path";
import { sampleFiles } from "../../scripts/dev/demo-plan.ts";
import { createAdminClient } from "../../sdk/admin/index.ts";
import type { DocumentRecord } from "../../sdk/admin/schemas.ts";
import { uploadFile } from "../../service/cli/admin-client.ts";
import { testModelFolder } from "../../service/embedding/testing/model.ts";
import { seedPgliteDir } from "../../service/testing/pglite-template.ts";
import { waitForDocuments } from "../../service/testing/sharing-area.ts";
import { type SpawnedService, spawnService } from "../../service/testing/spawn-service.ts";
import { removeTemporaryDirectories, temporaryDirectory } from "../../service/testing/temporary-directory.ts";
import { type ServiceProxy, startServiceProxy } from "./app-service-proxy.ts";

const repositoryRoot = resolve(import.meta.dirname, "../..");

/** The datasources as the search page names them (`CITED_DATASOURCES`), from the samples' split. */
export const datasourceNames = { manuals: "Manuals", notes: "Notes" } as const;

export interface AppStackOptions {
  /**
   * Gives the app its console (/console): the service's sharing area (through the proxy) with the
   * stack's admin token, open to the users listed. Without it the app has no console.
   */
  console?: {
    operators: readonly string[];
    /** The service's limit per uploaded file (`CKA_MAX_UPLOAD_BYTES`); the service's default without it. */
    maxUploadBytes?: number;
  };
  /**
   * Settings for `next start` on top of the stack's own, e.g. a Supabase project's; an empty string
   * switches a setting off. The Supabase settings are blank unless given here, so a developer's
   * .env.local cannot switch the embedded mode's specs to Supabase.
   */
  env?: Record<string, string>;
  /** False runs the service without its embedding model (lexical only); it has the model otherwise. */
  semanticSearch?: boolean;
  /** True lets the service read images and scanned pages with tesseract; it runs without OCR otherwise. */
  ocr?: boolean;
}

export interface AppStack {
  /** Where the app answers, e.g. `http://127.0.0.1:41234`; also its `CITED_APP_ORIGIN`. */
  readonly appUrl: string;
  /** The service process itself (the app never calls it directly). */
  readonly serviceUrl: string;
  /** What the app knows as `CITED_BASE_URL`: the proxy in front of the service. */
  readonly baseUrl: string;
  readonly apiKey: string;
  /** The service's admin token: the app holds it only when it has a console. */
  readonly adminToken: string;
  readonly sessionSecret: string;
  readonly assistantId: string;
  readonly documents: readonly DocumentRecord[];
  readonly proxy: ServiceProxy;
  /** The last lines the app and the service wrote, for failure messages. */
  logs(): { app: string; service: string };
  stop(): Promise<void>;
}

/** A port nobody listens on right now (the kernel's choice for port 0). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolveListen) => server.listen(0, "127.0.0.1", resolveListen));
  const address = server.address();
  await new Promise((resolveClose) => server.close(resolveClose));
  if (address === null || typeof address === "string") throw new Error("no port for the app");
  return address.port;
}

async function ingestSamples(serviceUrl: string, adminToken: string, semanticSearch: boolean) {
  const admin = createAdminClient({ baseUrl: serviceUrl, adminToken });
  const assistant = await admin.createAssistant("Cited e2e");
  for (const sample of sampleFiles) {
    await uploadFile(admin, assistant.id, resolve(repositoryRoot, sample.path), sample.datasource);
  }
  // Ready, and found by meaning too: answers do not change while the model works through the samples.
  const documents = await waitForDocuments(admin, assistant.id, {
    done: (listed) =>
      listed.length === sampleFiles.length &&
      listed.every(
        (document) =>
          document.status === "failed" ||
          (document.status === "ready" &&
            (!semanticSearch || document.passages_embedded === document.passages)),
      ),
    timeoutMs: 150_000,
  });
  const failed = documents.find((document) => document.status !== "ready");
  if (failed) throw new Error(`ingestion of ${failed.file_name} failed: ${failed.error}`);
  const { key } = await admin.createKey(assistant.id, ["ask", "rag"]);
  return { assistantId: assistant.id, documents, key };
}

function datasourceSetting(documents: readonly DocumentRecord[]): string {
  return Object.entries(datasourceNames)
    .map(([datasource, name]) => {
      const document = documents.find((candidate) => candidate.datasource === datasource);
      if (!document) throw new Error(`no sample was ingested into ${datasource}`);
      return `${name}=${document.id_datasource}`;
    })
    .join(",");
}

/** Polls until `url` answers at all (any status): `next start` prints "Ready" before it serves. */
export async function waitUntilAnswering(
  url: string,
  child: ChildProcess,
  logs: () => string,
): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`next start exited with ${child.exitCode}:\n${logs()}`);
    try {
      await fetch(url, { redirect: "manual", signal: AbortSignal.timeout(5_000) });
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`the app did not answer at ${url} in 60 s:\n${logs()}`);
      await new Promise((resolveWait) => setTimeout(resolveWait, 250));
    }
  }
}

export function stopProcessGroup(child: ChildProcess): Promise<void> {
  return new Promise((resolveExit) => {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return resolveExit();
    child.once("exit", () => resolveExit());
    // `next start` may start helpers of its own; they share the group made for it.
    process.kill(-child.pid, "SIGTERM");
    setTimeout(() => {
      if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
        process.kill(-child.pid, "SIGKILL");
      }
    }, 5_000).unref();
  });
}

const tail = (text: string) => text.split("\n").slice(-60).join("\n");

export async function startAppStack(options: AppStackOptions = {}): Promise<AppStack> {
  const adminToken = randomBytes(24).toString("base64url");
  const sessionSecret = randomBytes(32).toString("hex");
  const semanticSearch = options.semanticSearch ?? true;
  let service: SpawnedService | undefined;
  let proxy: ServiceProxy | undefined;
  let app: ChildProcess | undefined;
  let appLog = "";
  const stop = async () => {
    if (app) await stopProcessGroup(app);
    await proxy?.stop();
    await service?.stop("SIGKILL");
    removeTemporaryDirectories();
  };
  try {
    service = await spawnService({
      env: {
        CKA_ADMIN_TOKEN: adminToken,
        CKA_TOKEN_SECRET: randomBytes(32).toString("base64url"),
        CKA_OCR: options.ocr ? "auto" : "off",
        ...(semanticSearch
          ? {
              CKA_EMBEDDINGS: "auto",
              CKA_EMBEDDING_MODEL_DIR: testModelFolder(),
              CKA_EMBEDDING_HUB_URL: "off",
            }
          : { CKA_EMBEDDINGS: "off" }),
        ...(options.console?.maxUploadBytes
          ? { CKA_MAX_UPLOAD_BYTES: String(options.console.maxUploadBytes) }
          : {}),
      },
    });
    const { assistantId, documents, key } = await ingestSamples(service.url, adminToken, semanticSearch);
    proxy = await startServiceProxy(service.url);
    const port = await freePort();
    const appDataDir = temporaryDirectory("cited-app-e2e-");
    seedPgliteDir(join(appDataDir, "pglite"));
    const appUrl = `http://127.0.0.1:${port}`;
    app = spawn(
      process.execPath,
      ["node_modules/next/dist/bin/next", "start", "--hostname", "127.0.0.1", "--port", String(port)],
      {
        cwd: repositoryRoot,
        detached: true,
        stdio: ["ignore", "pipe", "pipe"],
        env: {
          ...process.env,
          CITED_BASE_URL: proxy.url,
          CITED_ASSISTANT_ID: assistantId,
          CITED_API_KEY: key,
          CITED_SESSION_SECRET: sessionSecret,
          CITED_APP_ORIGIN: appUrl,
          CITED_DEV_SIGN_IN: "allow",
          CITED_APP_DATA_DIR: appDataDir,
          CITED_DATASOURCES: datasourceSetting(documents),
          // Set even when empty, so a developer's .env.local (npm run dev writes them) gives no console.
          CITED_ADMIN_URL: options.console ? proxy.url : "",
          CITED_ADMIN_TOKEN: options.console ? adminToken : "",
          CITED_OPERATORS: options.console?.operators.join(",") ?? "",
          SUPABASE_URL: "",
          SUPABASE_PUBLISHABLE_KEY: "",
          SUPABASE_JWT_SECRET: "",
          ...options.env,
        },
      },
    );
    const collect = (chunk: Buffer) => {
      appLog = tail(appLog + chunk.toString());
    };
    app.stdout?.on("data", collect);
    app.stderr?.on("data", collect);
    await waitUntilAnswering(appUrl, app, () => appLog);
    const started = { service, proxy };
    return {
      appUrl,
      serviceUrl: started.service.url,
      baseUrl: started.proxy.url,
      apiKey: key,
      adminToken,
      sessionSecret,
      assistantId,
      documents,
      proxy: started.proxy,
      logs: () => ({ app: appLog, service: tail(started.service.logs()) }),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
