/** Starts the real service as a child process on a free loopback port, for cross-process tests. */
import { type ChildProcess, spawn } from "node:child_process";
import { join, resolve } from "node:path";
import { seedPgliteDir } from "./pglite-template.ts";
import { temporaryDirectory } from "./temporary-directory.ts";

export interface SpawnedService {
  url: string;
  dataDir: string;
  process: ChildProcess;
  /** Everything the process wrote to stderr (its logs), for failure messages. */
  logs(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

const cli = resolve(import.meta.dirname, "../cli.ts");

export async function spawnService(
  options: { dataDir?: string; env?: Record<string, string>; args?: string[] } = {},
): Promise<SpawnedService> {
  let dataDir = options.dataDir;
  if (dataDir === undefined) {
    dataDir = temporaryDirectory("cka-test-");
    seedPgliteDir(join(dataDir, "pglite"));
  }
  const child = spawn(
    process.execPath,
    [cli, "serve", "--host", "127.0.0.1", "--port", "0", "--data", dataDir, ...(options.args ?? [])],
    {
      env: { ...process.env, CKA_LOG: "quiet", CKA_EMBEDDINGS: "off", ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const url = await new Promise<string>((resolveUrl, reject) => {
    let stdout = "";
    const timer = setTimeout(() => {
      // Not left running: the caller never gets a handle to stop it.
      child.kill("SIGKILL");
      reject(new Error(`service did not start in 60 s:\n${stderr}`));
    }, 60_000);
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /serving on (http:\/\/\S+)/.exec(stdout);
      if (match?.[1]) {
        clearTimeout(timer);
        resolveUrl(match[1]);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`service exited with ${code} before listening:\n${stderr}`));
    });
  });
  return {
    url,
    dataDir,
    process: child,
    logs: () => stderr,
    stop: (signal = "SIGTERM") =>
      new Promise((resolveExit) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolveExit(child.exitCode);
        child.once("exit", (code) => resolveExit(code));
        child.kill(signal);
      }),
  };
}
