/** `cka`'s commands: runs the service and drives its sharing area from the command line. */
import { parseArgs } from "node:util";
import type { AdminClient } from "../../sdk/admin/index.ts";
import { ApiConnectionError, CitedApiError } from "../../sdk/core/index.ts";
import { scopeSchema } from "../../sdk/core/wire.ts";
import { adminClientSettings } from "../config.ts";
import { startServer } from "../server.ts";
import { adminClientFor, resolveConnection } from "./admin-client.ts";
import { connectionFailureMessage } from "./connection-help.ts";
import { ingestFiles } from "./ingest-command.ts";

const usage = `Usage: cka <command> [options]

  serve [--port 8787] [--host 127.0.0.1] [--data .data/service]
  assistants create NAME | list | rename ID NAME | delete ID
  ingest --assistant ID [--datasource NAME] FILES_OR_FOLDERS...
                       PDF, Word (.docx), PowerPoint (.pptx), Excel (.xlsx), Calc (.ods), EPUB, images
                       (PNG, JPEG, TIFF, WebP; read with OCR), Markdown, text, HTML, CSV/TSV, WebVTT/SRT
                       and JSON/JSON Lines files; others fail with a reason
  keys create --assistant ID [--scopes ask,rag] [--name NAME] | list --assistant ID | revoke KEY_ID
  share --assistant ID
  status               how the service searches: by meaning and words, or by words only (and why)

Commands other than serve talk to a running service:
  --url URL            default $CKA_URL or http://127.0.0.1:8787
  --data DIR           the folder the service was started with: default $CKA_DATA or .data/service
  --admin-token TOKEN  default $CKA_ADMIN_TOKEN, else the token kept in --data
`;

const connectionOptions = {
  url: { type: "string" },
  "admin-token": { type: "string" },
  data: { type: "string" },
  assistant: { type: "string" },
  datasource: { type: "string" },
  scopes: { type: "string", default: "ask,rag" },
  name: { type: "string" },
  json: { type: "boolean", default: false },
} as const;

function print(value: unknown, asJson: boolean, text: string): void {
  process.stdout.write(asJson ? `${JSON.stringify(value, null, 2)}\n` : `${text}\n`);
}

async function serveCommand(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: "string", default: process.env.CKA_PORT ?? "8787" },
      host: { type: "string", default: process.env.CKA_HOST ?? "127.0.0.1" },
      data: { type: "string", default: adminClientSettings().CKA_DATA },
    },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port must be 0 to 65535, got ${values.port}`);
  const server = await startServer({ host: values.host, port, dataDir: values.data });
  process.stdout.write(`cka: serving on ${server.url}\n`);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`cka: ${signal}, stopping\n`);
    await server.close();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

function requireAssistant(assistant: string | undefined): string {
  if (!assistant) throw new Error("--assistant ID is required");
  return assistant;
}

const parseAdminArguments = (argv: string[]) =>
  parseArgs({ args: argv, options: connectionOptions, allowPositionals: true });

type AdminArguments = ReturnType<typeof parseAdminArguments>;

/** Runs an admin command; a failure to reach the service or a refused token says where cka looked. */
async function adminCommand(command: string, argv: string[]): Promise<void> {
  const parsed = parseAdminArguments(argv);
  const connection = resolveConnection(parsed.values);
  try {
    await runAdminCommand(adminClientFor(connection), command, parsed);
  } catch (error) {
    const message = connectionFailureMessage(error, connection);
    throw message === null ? error : new Error(message, { cause: error });
  }
}

async function runAdminCommand(
  client: AdminClient,
  command: string,
  { values, positionals }: AdminArguments,
): Promise<void> {
  const [action, argument, secondArgument] = positionals;
  switch (`${command} ${command === "ingest" || command === "share" ? "" : (action ?? "")}`.trim()) {
    case "assistants create": {
      if (!argument) throw new Error("cka assistants create NAME");
      const assistant = await client.createAssistant(argument);
      return print(assistant, values.json, assistant.id);
    }
    case "assistants list": {
      const assistants = await client.listAssistants();
      return print(assistants, values.json, assistants.map((item) => `${item.id}\t${item.name}`).join("\n"));
    }
    case "assistants rename": {
      if (!argument || !secondArgument) throw new Error("cka assistants rename ID NAME");
      const assistant = await client.renameAssistant(argument, secondArgument);
      return print(assistant, values.json, `${assistant.id}\t${assistant.name}`);
    }
    case "assistants delete":
      if (!argument) throw new Error("cka assistants delete ID");
      await client.deleteAssistant(argument);
      return print({ deleted: argument }, values.json, `deleted ${argument}`);
    case "ingest": {
      const outcome = await ingestFiles(client, {
        assistant: requireAssistant(values.assistant),
        ...(values.datasource ? { datasource: values.datasource } : {}),
        paths: positionals,
        out: process.stdout,
      });
      if (outcome.failed > 0) process.exitCode = 1;
      return;
    }
    case "keys create": {
      const scopes = values.scopes.split(",").map((scope) => scopeSchema.parse(scope.trim()));
      const key = await client.createKey(requireAssistant(values.assistant), scopes, values.name);
      return print(
        key,
        values.json,
        `${key.id}\t${key.scopes.join(",")}\n${key.key}\n(the key is shown only now)`,
      );
    }
    case "keys list": {
      const keys = await client.listKeys(requireAssistant(values.assistant));
      const lines = keys.map((key) => {
        const state = key.revoked_at ? "revoked" : "active";
        const use = key.last_used_at ? `last used ${key.last_used_at}` : "never used";
        return `${key.id}\t${key.prefix}…\t${key.scopes.join(",")}\t${state}\t${use}`;
      });
      return print(keys, values.json, lines.join("\n"));
    }
    case "keys revoke":
      if (!argument) throw new Error("cka keys revoke KEY_ID");
      await client.revokeKey(argument);
      return print({ revoked: argument }, values.json, `revoked ${argument}`);
    case "status": {
      const status = await client.status();
      const model = status.embedding_model ? ` (${status.embedding_model})` : "";
      const mode = {
        semantic: "by meaning and words",
        loading: "by words while the model loads",
        lexical: "by words only",
      };
      print(status, values.json, `search: ${mode[status.search]}${model}\n${status.detail}`);
      return;
    }
    case "share": {
      const share = await client.share(requireAssistant(values.assistant));
      return print(share, values.json, `assistant: ${share.assistant}\nbase_url:  ${share.base_url}`);
    }
    default:
      throw new Error(`unknown command "${[command, action].filter(Boolean).join(" ")}"\n${usage}`);
  }
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === undefined || command === "help" || command === "--help") {
    process.stdout.write(usage);
    return;
  }
  if (command === "serve") return serveCommand(rest);
  if (["assistants", "ingest", "keys", "share", "status"].includes(command))
    return adminCommand(command, rest);
  process.stderr.write(`cka: unknown command "${command}"\n${usage}`);
  process.exitCode = 2;
}

/** What `cka` says of a failure: the service's own words for a refusal. */
function failureMessage(error: unknown): string {
  if (CitedApiError.isInstance(error)) return error.problem?.detail ?? error.message;
  return error instanceof Error ? error.message : String(error);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`cka: ${failureMessage(error)}\n`);
  process.exitCode = 1;
});
