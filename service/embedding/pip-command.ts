/** The pip on this machine, if any, used only to download the model's wheel (never to run Python code of ours). */
import { spawnSync } from "node:child_process";

const candidates: readonly (readonly string[])[] = [["pip3"], ["pip"], ["python3", "-m", "pip"]];

export function pipCommand(): readonly string[] | null {
  for (const command of candidates) {
    const [program, ...prefix] = command;
    const probe = spawnSync(program!, [...prefix, "--version"], { stdio: "ignore", timeout: 10_000 });
    if (probe.status === 0) return command;
  }
  return null;
}
