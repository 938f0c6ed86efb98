/** Resident memory of a service process (its main thread and worker threads), from /proc. */
import { readFileSync } from "node:fs";
import type { SpawnedService } from "../../service/testing/spawn-service.ts";

export function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const match = /VmRSS:\s+(\d+) kB/.exec(status);
  if (!match) throw new Error(`no VmRSS for process ${pid}`);
  return Number(match[1]) / 1024;
}

/**
 * Waits until the service has saved the index snapshot of `assistantId` (loading an index from stored
 * passages schedules one), then a second more: the memory is read once the work of loading has settled.
 * Needs the service started with CKA_LOG=info.
 */
export async function settledRssMiB(
  service: SpawnedService,
  assistantId: string,
  timeoutMs = 120_000,
): Promise<number> {
  const saved = () =>
    service
      .logs()
      .split("\n")
      .some((line) => line.includes('"index snapshot saved"') && line.includes(assistantId));
  for (let waited = 0; !saved(); waited += 200) {
    if (waited > timeoutMs) throw new Error(`no index snapshot of ${assistantId} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await new Promise((resolve) => setTimeout(resolve, 1000));
  return rssMiB(service.process.pid!);
}
