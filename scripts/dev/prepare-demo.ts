/**
 * The demo `npm run dev` hands to the app: an assistant over samples/, an API key with both scopes, and the
 * four settings in `.env.local`. What the running service still has is reused; what it lacks is made.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { AdminClient } from "../../sdk/admin/index.ts";
import type { AdminConnection } from "../../service/cli/admin-client.ts";
import {
  chooseAssistant,
  demoAssistantName,
  type SampleFile,
  sessionSecret,
  usableKeyId,
} from "./demo-plan.ts";
import { readEnvFile, readEnvValues, rewriteEnvText, writeEnvFile } from "./env-file.ts";
import { ingestSamples } from "./ingest-samples.ts";

export interface DemoOptions {
  /** The git-ignored env file Next.js reads (`.env.local`). */
  envFile: string;
  /** Where people open the app (`http://localhost:3000`): the route handler accepts requests from it. */
  appOrigin: string;
  /** Where the assistant, key and datasource ids are recorded for people and scripts (no secrets). */
  recordFile: string;
  samples: SampleFile[];
  out: NodeJS.WriteStream;
  log(line: string): void;
  ingestTimeoutMs: number;
  /** The sharing area the app's console uses (its URL and admin token), or none for an app without one. */
  console?: AdminConnection;
}

export interface Demo {
  baseUrl: string;
  assistantId: string;
  keyId: string;
  /** Datasource name → id, for the rag datasource filter. */
  datasources: Record<string, string>;
}

const envHeading = "Written by `npm run dev` (scripts/dev.ts): the demo assistant on the local service.";

export async function prepareDemo(client: AdminClient, options: DemoOptions): Promise<Demo> {
  const envText = readEnvFile(options.envFile);
  const remembered = readEnvValues(envText);

  let assistant = chooseAssistant(await client.listAssistants(), remembered.get("CITED_ASSISTANT_ID"));
  if (assistant) options.log(`reusing demo assistant ${assistant.id}`);
  else {
    options.log("creating demo assistant");
    assistant = await client.createAssistant(demoAssistantName);
  }

  const documents = await ingestSamples(client, assistant.id, options.samples, {
    out: options.out,
    log: options.log,
    timeoutMs: options.ingestTimeoutMs,
  });
  const datasources = Object.fromEntries(
    documents.map((document) => [document.datasource, document.id_datasource]),
  );
  options.log(
    `datasources: ${Object.entries(datasources)
      .map(([name, id]) => `${name} ${id}`)
      .join(", ")}`,
  );

  let apiKey = remembered.get("CITED_API_KEY");
  let keyId = usableKeyId(apiKey, assistant.id, await client.listKeys(assistant.id));
  if (apiKey && keyId) options.log(`reusing key ${keyId}`);
  else {
    options.log("creating key (scopes ask, rag)");
    const created = await client.createKey(assistant.id, ["ask", "rag"], "npm run dev");
    apiKey = created.key;
    keyId = created.id;
  }

  const { base_url: baseUrl } = await client.share(assistant.id);
  writeEnvFile(
    options.envFile,
    rewriteEnvText(
      envText,
      {
        CITED_BASE_URL: baseUrl,
        CITED_ASSISTANT_ID: assistant.id,
        CITED_API_KEY: apiKey,
        CITED_SESSION_SECRET: sessionSecret(remembered.get("CITED_SESSION_SECRET")),
        CITED_APP_ORIGIN: options.appOrigin,
        // The search page's filter: Name=ds_… pairs.
        CITED_DATASOURCES: Object.entries(datasources)
          .map(([name, id]) => `${name.charAt(0).toUpperCase()}${name.slice(1)}=${id}`)
          .join(","),
        // The console (/console) calls the local service's sharing area; in development, without
        // CITED_OPERATORS, every signed-in user is an operator.
        ...(options.console
          ? { CITED_ADMIN_URL: options.console.url, CITED_ADMIN_TOKEN: options.console.adminToken }
          : {}),
      },
      envHeading,
    ),
  );
  options.log(
    `${options.envFile}: CITED_BASE_URL, CITED_ASSISTANT_ID, CITED_API_KEY, CITED_SESSION_SECRET, CITED_APP_ORIGIN, CITED_DATASOURCES${options.console ? ", CITED_ADMIN_URL, CITED_ADMIN_TOKEN" : ""}`,
  );

  const demo: Demo = { baseUrl, assistantId: assistant.id, keyId, datasources };
  mkdirSync(dirname(options.recordFile), { recursive: true });
  writeFileSync(options.recordFile, `${JSON.stringify(demo, null, 2)}\n`);
  return demo;
}
