/**
 * `npm run test:reliability`: the reliability suites at full strength (hostile input, faults, load,
 * disk full, scale-out), then one summary of what they sent, injected and checked. `npm test` runs
 * the same files trimmed (service/reliability/budget.ts).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Tally } from "../service/reliability/tally.ts";
import { tallyFolder } from "../service/reliability/tally.ts";

const suites = [
  "service/reliability/",
  "service/ingest/ingestion-faults.int.test.ts",
  "service/scale-out.int.test.ts",
].filter((path) => existsSync(path));
rmSync(tallyFolder, { recursive: true, force: true });
const started = Date.now();
const run = spawnSync("node_modules/.bin/vitest", ["run", ...suites], {
  stdio: "inherit",
  env: { ...process.env, CITED_RELIABILITY: "full" },
});

const tallies = existsSync(tallyFolder)
  ? readdirSync(tallyFolder)
      .filter((name) => name.endsWith(".json"))
      .map((name) => JSON.parse(readFileSync(join(tallyFolder, name), "utf8")) as Tally & { suite: string })
  : [];
const total = (bucket: "requests" | "faults" | "checked") => {
  const sums: Record<string, number> = {};
  for (const tally of tallies)
    for (const [key, value] of Object.entries(tally[bucket])) sums[key] = (sums[key] ?? 0) + value;
  return sums;
};
const line = (sums: Record<string, number>) =>
  Object.entries(sums)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, value]) => `${key}: ${value.toLocaleString("en")}`)
    .join(", ") || "none";

const requests = total("requests");
console.log(
  `\nreliability summary (${((Date.now() - started) / 1000).toFixed(0)} s, suites: ${tallies.map((tally) => tally.suite).join(", ")})`,
);
console.log(
  `  requests: ${Object.values(requests)
    .reduce((sum, value) => sum + value, 0)
    .toLocaleString("en")} (${line(requests)})`,
);
console.log(`  faults injected: ${line(total("faults"))}`);
console.log(`  data checked: ${line(total("checked"))}`);
for (const tally of tallies) {
  for (const [label, figure] of Object.entries(tally.latency)) {
    console.log(
      `  ${tally.suite} ${label}: ${figure.count} requests, p50 ${figure.p50.toFixed(1)} ms, p99 ${figure.p99.toFixed(1)} ms`,
    );
  }
}
process.exit(run.status ?? 1);
