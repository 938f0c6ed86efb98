/** `npm run dev`: the service on 8787 and the Next.js app on 3000; Ctrl-C stops both. */
import { type ChildProcess, spawn } from "node:child_process";

const children: ChildProcess[] = [];
let stopping = false;

function start(name: string, command: string, args: string[]): void {
  const child = spawn(command, args, { stdio: "inherit", env: process.env });
  children.push(child);
  child.on("exit", (code, signal) => {
    if (stopping) return;
    console.error(`dev: ${name} exited (${signal ?? code}); stopping the others`);
    stop(code ?? 1);
  });
}

function stop(exitCode: number): void {
  if (stopping) return;
  stopping = true;
  const alive = children.filter((child) => child.exitCode === null && child.signalCode === null);
  for (const child of alive) child.kill("SIGTERM");
  let remaining = alive.length;
  if (remaining === 0) process.exit(exitCode);
  for (const child of alive) {
    child.on("exit", () => {
      remaining -= 1;
      if (remaining === 0) process.exit(exitCode);
    });
  }
  setTimeout(() => {
    for (const child of alive) child.kill("SIGKILL");
    process.exit(exitCode);
  }, 5000).unref();
}

process.on("SIGINT", () => stop(0));
process.on("SIGTERM", () => stop(0));

start("service", process.execPath, ["service/cli.ts", "serve", "--port", process.env.CKA_PORT ?? "8787"]);
start("app", process.execPath, [
  "node_modules/next/dist/bin/next",
  "dev",
  "--port",
  process.env.PORT ?? "3000",
]);
