/** The processes `npm run dev` runs (service, app): when one exits, or on Ctrl-C, every one stops. */
import { type ChildProcess, spawn } from "node:child_process";

const children: ChildProcess[] = [];
let stopping = false;

/** True once a stop has begun: later failures are the stop's doing and need no message. */
export const isStopping = (): boolean => stopping;

export function startChild(
  name: string,
  command: string,
  args: string[],
  environment: NodeJS.ProcessEnv = process.env,
): ChildProcess {
  const child = spawn(command, args, { stdio: "inherit", env: environment });
  children.push(child);
  child.on("exit", (code, signal) => {
    if (stopping) return;
    console.error(`dev: ${name} exited (${signal ?? code}); stopping the others`);
    stopAll(code ?? 1);
  });
  return child;
}

export function stopAll(exitCode: number): void {
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

/** Ctrl-C (or a SIGTERM from a supervisor) stops the children and then this process. */
export function stopOnSignals(): void {
  process.on("SIGINT", () => stopAll(0));
  process.on("SIGTERM", () => stopAll(0));
}
