/** `npm test`: type check, lint and the app's build at once, then unit and integration tests, then end-to-end tests in Debian's Chromium. */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { chromiumPath } from "../e2e/chromium.ts";

interface Step {
  name: string;
  command: string[];
  env?: Record<string, string>;
}

const bin = (name: string) => `node_modules/.bin/${name}`;
mkdirSync("test-results", { recursive: true });

if (!existsSync(chromiumPath)) {
  console.error(
    `npm test: Chromium is missing at ${chromiumPath}. Install Debian's build: apt-get update && apt-get install -y chromium`,
  );
  process.exit(1);
}

/** They wait on nothing of each other, so they run at once (~30 s instead of ~47 s on a fresh clone). */
const checks: Step[] = [
  { name: "type check", command: [bin("tsc"), "--noEmit"] },
  { name: "lint", command: [bin("biome"), "check", "."] },
  { name: "build the app", command: [process.execPath, "node_modules/next/dist/bin/next", "build"] },
];

const suites: Step[] = [
  {
    name: "unit and integration tests",
    command: [
      bin("vitest"),
      "run",
      "--reporter=default",
      "--reporter=json",
      "--outputFile.json=test-results/vitest.json",
    ],
  },
  {
    name: "end-to-end tests",
    command: [bin("playwright"), "test", "--reporter=list,json"],
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: "test-results/playwright.json" },
  },
];

const header = (step: Step) => console.log(`\n▶ ${step.name}: ${step.command.join(" ")}`);

/** Runs a step with its output held back, so that steps running together print one after another. */
function runQuietly(step: Step): Promise<{ status: number | null; output: string }> {
  const [command, ...args] = step.command as [string, ...string[]];
  const child = spawn(command, args, {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...step.env },
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (status) => resolve({ status, output }));
  });
}

const failedSteps: string[] = [];
const checked = await Promise.all(checks.map(runQuietly));
checks.forEach((step, index) => {
  header(step);
  const { status, output } = checked[index] as { status: number | null; output: string };
  process.stdout.write(output);
  if (status !== 0) failedSteps.push(step.name);
});
for (const step of suites) {
  // The end-to-end tests run the built app.
  if (step.name === "end-to-end tests" && failedSteps.includes("build the app")) break;
  header(step);
  const [command, ...args] = step.command as [string, ...string[]];
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...step.env } });
  if (result.status !== 0) failedSteps.push(step.name);
}

const counts = { passed: 0, failed: 0, skipped: 0 };
if (existsSync("test-results/vitest.json")) {
  const report = JSON.parse(readFileSync("test-results/vitest.json", "utf8"));
  counts.passed += report.numPassedTests ?? 0;
  counts.failed += report.numFailedTests ?? 0;
  counts.skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
}
if (existsSync("test-results/playwright.json")) {
  const stats = JSON.parse(readFileSync("test-results/playwright.json", "utf8")).stats ?? {};
  counts.passed += stats.expected ?? 0;
  counts.failed += (stats.unexpected ?? 0) + (stats.flaky ?? 0);
  counts.skipped += stats.skipped ?? 0;
}

console.log(`\nsteps failed: ${failedSteps.length ? failedSteps.join(", ") : "none"}`);
console.log(`tests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
process.exit(failedSteps.length > 0 || counts.failed > 0 ? 1 : 0);
