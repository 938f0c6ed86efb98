/** Starts Debian's PostgreSQL in a temporary folder on a free loopback port, for tests; stopped by the test. */
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface TestPostgres {
  url: string;
  /** Stops the server as a crash would (immediate), keeping its data for `resume`. */
  halt(): void;
  resume(): void;
  stop(): void;
}

function postgresBin(): string | null {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  const found = versions
    .map((version) => join(root, version, "bin"))
    .find((bin) => existsSync(join(bin, "initdb")));
  return found ?? null;
}

export const postgresAvailable = postgresBin() !== null;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

export async function startPostgres(): Promise<TestPostgres> {
  const bin = postgresBin();
  if (!bin) throw new Error("PostgreSQL is not installed: apt-get install -y postgresql");
  const dir = mkdtempSync(join(tmpdir(), "cka-pg-"));
  chmodSync(dir, 0o777);
  const dataDir = join(dir, "data");
  const port = await freePort();
  // PostgreSQL refuses to run as root; the Debian package creates the `postgres` user for it.
  const asPostgres = process.getuid?.() === 0 ? ["runuser", "-u", "postgres", "--"] : [];
  const run = (command: string, args: string[]) => {
    const [program, ...rest] = [...asPostgres, join(bin, command), ...args] as [string, ...string[]];
    execFileSync(program, rest, { stdio: "pipe" });
  };
  run("initdb", ["-D", dataDir, "-A", "trust", "-U", "cka", "--no-sync", "-E", "UTF8"]);
  const start = () =>
    run("pg_ctl", [
      "-D",
      dataDir,
      "-l",
      join(dir, "log"),
      "-o",
      // No fsync (the machine does not crash in a test), but every commit reaches the WAL before it is
      // acknowledged: `halt` is a crash of the server, and with asynchronous commit a row written just before
      // it was lost (the outage test's fresh API key came back unknown, 401, in about half of its runs).
      `-p ${port} -h 127.0.0.1 -k ${dir} -c fsync=off -c full_page_writes=off`,
      "-w",
      "start",
    ]);
  start();
  return {
    url: `postgres://cka@127.0.0.1:${port}/postgres`,
    halt: () => run("pg_ctl", ["-D", dataDir, "-m", "immediate", "-w", "stop"]),
    resume: start,
    stop() {
      run("pg_ctl", ["-D", dataDir, "-m", "immediate", "-w", "stop"]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
