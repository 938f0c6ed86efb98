#!/usr/bin/env node
/** `cka`: runs the service and drives its sharing area from the command line. */
import { parseArgs } from "node:util";
import { startServer } from "./server.ts";

const usage = `Usage: cka <command> [options]

Commands:
  serve [--port 8787] [--host 127.0.0.1] [--data .data/service]   run the service
`;

async function serveCommand(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: "string", default: process.env.CKA_PORT ?? "8787" },
      host: { type: "string", default: process.env.CKA_HOST ?? "127.0.0.1" },
      data: { type: "string", default: process.env.CKA_DATA ?? ".data/service" },
    },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port must be 0 to 65535, got ${values.port}`);
  const server = await startServer({ host: values.host, port, dataDir: values.data });
  process.stdout.write(`cka: serving on ${server.url}\n`);
  const stop = async (signal: string) => {
    process.stdout.write(`cka: ${signal}, stopping\n`);
    await server.close();
    process.exit(0);
  };
  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  switch (command) {
    case "serve":
      return serveCommand(rest);
    case undefined:
    case "help":
    case "--help":
      process.stdout.write(usage);
      return;
    default:
      process.stderr.write(`cka: unknown command "${command}"\n${usage}`);
      process.exitCode = 2;
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`cka: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
