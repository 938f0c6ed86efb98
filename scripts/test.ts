/** `npm test`: type check, lint, unit and integration tests, then end-to-end tests in Debian's Chromium. */
import { spawnSync } from "node:child_process";
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

const steps: Step[] = [
  { name: "type check", command: [bin("tsc"), "--noEmit"] },
  { name: "lint", command: [bin("biome"), "check", "."] },
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
  { name: "build the app", command: [process.execPath, "node_modules/next/dist/bin/next", "build"] },
  {
    name: "end-to-end tests",
    command: [bin("playwright"), "test", "--reporter=list,json"],
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: "test-results/playwright.json" },
  },
];

const failedSteps: string[] = [];
for (const step of steps) {
  console.log(`\n▶ ${step.name}: ${step.command.join(" ")}`);
  const [command, ...args] = step.command as [string, ...string[]];
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...step.env } });
  if (result.status !== 0) {
    failedSteps.push(step.name);
    if (step.name === "build the app") break;
  }
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
