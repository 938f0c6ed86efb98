/**
 * `npm test`: its set-up first (scripts/setup.ts: missing Debian packages, the embedding model), then lint
 * (code and the OpenAPI document) and the app's build at once, then unit and integration tests beside the type
 * check, then end-to-end tests in Debian's headless Chromium.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";

interface Step {
  name: string;
  command: string[];
  env?: Record<string, string>;
}

// What the set-up cannot do itself it says in one message, which is then all that npm test prints.
const setUp = spawnSync(process.execPath, ["scripts/setup.ts"], { stdio: "inherit" });
if (setUp.status !== 0) process.exit(setUp.status ?? 1);

const bin = (name: string) => `node_modules/.bin/${name}`;
mkdirSync("test-results", { recursive: true });

const typeCheck: Step = { name: "type check", command: [bin("tsc"), "--noEmit"] };
const lint: Step = { name: "lint", command: [bin("biome"), "check", "."] };
const apiLint: Step = {
  name: "OpenAPI lint",
  command: [bin("redocly"), "lint", "sdk/openapi.json", "--format=stylish"],
  env: { REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
};
const build: Step = {
  name: "build the app",
  command: [process.execPath, "node_modules/next/dist/bin/next", "build"],
};
const unitTests: Step = {
  name: "unit and integration tests",
  command: [
    bin("vitest"),
    "run",
    "--reporter=default",
    "--reporter=json",
    "--outputFile.json=test-results/vitest.json",
  ],
};
const endToEnd: Step = {
  name: "end-to-end tests",
  command: [bin("playwright"), "test", "--reporter=list,json"],
  env: { PLAYWRIGHT_JSON_OUTPUT_NAME: "test-results/playwright.json" },
};

interface Outcome {
  status: number | null;
  /** What the step printed, when it was held back; a failure to start or a signal is added to it. */
  output: string;
}

const header = (step: Step) => console.log(`\n▶ ${step.name}: ${step.command.join(" ")}`);

/** Runs a step; `quiet` holds its output back, so that steps running together print one after another. */
function run(step: Step, quiet: boolean): Promise<Outcome> {
  const [command, ...args] = step.command as [string, ...string[]];
  const child = spawn(command, args, {
    stdio: quiet ? ["ignore", "pipe", "pipe"] : "inherit",
    env: { ...process.env, ...step.env },
  });
  let output = "";
  const hold = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on("data", hold);
  child.stderr?.on("data", hold);
  return new Promise((resolve) => {
    child.once("error", (error) =>
      resolve({ status: null, output: `${output}\n${step.name}: ${error.message}\n` }),
    );
    child.once("close", (status, signal) =>
      resolve({
        status,
        output: signal === null ? output : `${output}\n${step.name}: stopped by ${signal}\n`,
      }),
    );
  });
}

const failedSteps: string[] = [];
const record = (step: Step, outcome: Outcome) => {
  process.stdout.write(outcome.output);
  if (outcome.status !== 0) failedSteps.push(step.name);
};

// Reports of an earlier run must not be counted as this one's.
for (const file of ["test-results/vitest.json", "test-results/playwright.json"])
  rmSync(file, { force: true });

// Lint and the build wait on nothing of each other. The type check reads the route types the build
// writes, so it starts once the build is done, beside the unit tests (which never touch `.next`).
const [linted, apiLinted, built] = await Promise.all([run(lint, true), run(apiLint, true), run(build, true)]);
header(lint);
record(lint, linted);
header(apiLint);
record(apiLint, apiLinted);
header(build);
record(build, built);
const typeChecked = run(typeCheck, true);
header(unitTests);
record(unitTests, await run(unitTests, false));
header(typeCheck);
record(typeCheck, await typeChecked);
// The end-to-end tests run the built app.
if (built.status === 0) {
  header(endToEnd);
  record(endToEnd, await run(endToEnd, false));
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
