/**
 * `npm run dev`: the service (port $CKA_PORT, 8787), a demo assistant over samples/ whose key and base URL
 * (and the sharing area's URL and admin token, for the console) go to `.env.local`, then the Next.js app
 * (port $PORT, 3000). Re-running reuses all of it; Ctrl-C stops both.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { adminClientFor, resolveConnection } from "../service/cli/admin-client.ts";
import { cacheFolderName } from "../service/embedding/minilm.ts";
import { repositoryModelCache } from "../service/embedding/testing/model.ts";
import { isStopping, startChild, stopAll, stopOnSignals } from "./dev/children.ts";
import { sampleFiles } from "./dev/demo-plan.ts";
import { prepareDemo } from "./dev/prepare-demo.ts";
import { reportSearchMode } from "./dev/report-search-mode.ts";
import { waitUntilAnswering } from "./dev/wait-until-answering.ts";

const servicePort = process.env.CKA_PORT ?? "8787";
const repositoryModel = join(repositoryModelCache, cacheFolderName);
const appPort = process.env.PORT ?? "3000";
const serviceUrl = `http://127.0.0.1:${servicePort}`;
const appUrl = `http://localhost:${appPort}`;

const say = (line: string) => process.stdout.write(`dev: ${line}\n`);

async function main(): Promise<void> {
  stopOnSignals();
  say("starting the service…");
  // The service's info logs would break the progress bars below; CKA_LOG=info npm run dev shows them.
  const service = startChild(
    "service",
    process.execPath,
    ["service/cli.ts", "serve", "--port", servicePort],
    {
      ...process.env,
      CKA_LOG: process.env.CKA_LOG ?? "quiet",
      // The model `npm test` fetched into the repository's cache spares the service a download.
      ...(!process.env.CKA_EMBEDDING_MODEL_DIR && existsSync(repositoryModel)
        ? { CKA_EMBEDDING_MODEL_DIR: repositoryModel }
        : {}),
    },
  );
  await waitUntilAnswering(`${serviceUrl}/healthz`, service, {
    accept: (response) => response.ok,
    timeoutMs: 60_000,
    requestTimeoutMs: 2_000,
  });

  // The admin token is the one the service keeps in its data folder (or CKA_ADMIN_TOKEN), as for `cka`.
  const admin = resolveConnection({ url: serviceUrl });
  // A first start may download the model (~90 MB); its progress is shown here.
  await reportSearchMode(adminClientFor(admin), say, { timeoutMs: 15 * 60_000 });
  await prepareDemo(adminClientFor(admin), {
    envFile: ".env.local",
    appOrigin: appUrl,
    recordFile: ".data/demo.json",
    samples: sampleFiles,
    out: process.stdout,
    log: say,
    ingestTimeoutMs: 120_000,
    console: admin,
  });

  say("starting the app…");
  const app = startChild("app", process.execPath, [
    "node_modules/next/dist/bin/next",
    "dev",
    "--port",
    appPort,
  ]);
  // The first request makes Next.js compile the page, so the URL below opens at once.
  const response = await waitUntilAnswering(appUrl, app, {
    accept: () => true,
    timeoutMs: 180_000,
    requestTimeoutMs: 180_000,
    pollMs: 250,
  });
  const problem = response.status >= 500 ? ` (it answered ${response.status}: see the log above)` : "";
  say(`ready: open ${appUrl}${problem} (the operator console: ${appUrl}/console)`);
}

main().catch((error: unknown) => {
  if (isStopping()) return;
  console.error(`dev: ${error instanceof Error ? error.message : String(error)}`);
  stopAll(1);
});
