/** Waits for a child process's HTTP endpoint to answer; gives up when the child exits or time runs out. */
import type { ChildProcess } from "node:child_process";

export interface WaitOptions {
  /** Whether an answer counts; a `false` keeps waiting (e.g. a 503 while the service opens its store). */
  accept(response: Response): boolean;
  timeoutMs: number;
  /** How long one request may take: Next.js holds the first one while it compiles the page. */
  requestTimeoutMs: number;
  pollMs?: number;
}

const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

export async function waitUntilAnswering(
  url: string,
  child: ChildProcess,
  options: WaitOptions,
): Promise<Response> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    if (exited(child)) throw new Error(`${url}: the process exited before it answered`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(options.requestTimeoutMs) });
      await response.body?.cancel();
      if (options.accept(response)) return response;
    } catch {
      // Not listening yet (connection refused) or too slow: ask again below.
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${options.timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 100));
  }
}
