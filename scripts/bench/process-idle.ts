/** Waits for a process (all its threads) to stop using the CPU, read from /proc. */
import { readFileSync } from "node:fs";

/** CPU time of the process so far, in clock ticks (user + system, every thread). */
function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // The command name may hold spaces and parentheses: the fields are counted from its closing one.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(fields[11]) + Number(fields[12]);
}

/**
 * Resolves once the process has used at most one clock tick of CPU (10 ms) in each of `quietChecks`
 * consecutive 250 ms windows: its background work (the slicer reading documents ahead) is done.
 */
export async function untilIdle(pid: number, quietChecks = 2, timeoutMs = 60_000): Promise<void> {
  let quiet = 0;
  let last = cpuTicks(pid);
  for (let waited = 0; quiet < quietChecks; waited += 250) {
    if (waited > timeoutMs) throw new Error(`process ${pid} was still busy after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
    const now = cpuTicks(pid);
    quiet = now - last <= 1 ? quiet + 1 : 0;
    last = now;
  }
}
