/**
 * A host team's first afternoon, from the SDK's README and nothing else: a default Next.js app (the files
 * create-next-app writes for a build), the SDK copied in with scripts/copy-sdk.ts, and the files the README
 * marks `host-file` written as they stand. It must type-check and build with no environment at all, then
 * answer with a citation whose PDF page opens highlighted in Chromium, against a real service.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { expect, test } from "@playwright/test";
import { createAdminClient } from "../sdk/admin/index.ts";
import { uploadFile } from "../service/cli/admin-client.ts";
import { waitForDocuments } from "../service/testing/sharing-area.ts";
import { type SpawnedService, spawnService } from "../service/testing/spawn-service.ts";
import { removeTemporaryDirectories, temporaryDirectory } from "../service/testing/temporary-directory.ts";
import { delayedQueueQuestion, samplePdf } from "./support/app-questions.ts";
import { freePort, stopProcessGroup, waitUntilAnswering } from "./support/app-stack.ts";
import { screenshotsAtBothWidths } from "./support/screenshots.ts";

/** Runs a command to its end; a failure carries what it printed. */
function run(
  file: string,
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolveRun, reject) => {
    execFile(
      file,
      args,
      { ...options, maxBuffer: 16 * 1024 * 1024, encoding: "utf8" },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${args.join(" ")} failed:\n${stdout}\n${stderr}`, { cause: error }));
        else resolveRun({ stdout, stderr });
      },
    );
  });
}
const repositoryRoot = resolve(import.meta.dirname, "..");

/** The files the SDK's README marks `<!-- host-file: path -->`, as written there. */
function hostFiles(): Map<string, string> {
  const readme = readFileSync(join(repositoryRoot, "sdk", "README.md"), "utf8");
  const blocks = readme.matchAll(/<!-- host-file: (\S+) -->\n```\w*\n([\s\S]*?)```/g);
  return new Map([...blocks].map(([, path, text]) => [path!, text!]));
}

/** No CITED_ setting reaches the build or the type check: a CI job without secrets builds the same. */
function withoutCitedSettings(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith("CITED_")) delete env[name];
  return env;
}

test.describe.configure({ mode: "serial" });

let host = "";
let service: SpawnedService | undefined;
let app: ChildProcess | undefined;
let appLog = "";

test.afterAll(async () => {
  if (app) await stopProcessGroup(app);
  await service?.stop("SIGKILL");
  removeTemporaryDirectories();
});

test("the README's host files, in a default Next.js app with the copied SDK, type-check and build with no environment", async () => {
  test.setTimeout(600_000);
  host = temporaryDirectory("cited-minimal-host-");
  const template = join(import.meta.dirname, "support", "next-app-template");
  for (const file of ["tsconfig.json", "next.config.ts"]) cpSync(join(template, file), join(host, file));
  writeFileSync(join(host, "package.json"), JSON.stringify({ name: "minimal-host", private: true }, null, 2));
  // Hard links, so Turbopack sees the packages inside the app's own folder (it refuses a symlink out of it).
  await run("cp", ["-al", join(repositoryRoot, "node_modules"), join(host, "node_modules")]);
  await run(process.execPath, [join(repositoryRoot, "scripts", "copy-sdk.ts"), join(host, "sdk")]);
  const files = hostFiles();
  expect([...files.keys()].sort()).toEqual([
    "app/api/cited/[...path]/route.ts",
    "app/layout.tsx",
    "app/page.tsx",
  ]);
  for (const [path, text] of files) {
    mkdirSync(dirname(join(host, path)), { recursive: true });
    writeFileSync(join(host, path), text);
  }

  const options = { cwd: host, env: withoutCitedSettings() };
  const next = join(host, "node_modules", "next", "dist", "bin", "next");
  const built = await run(process.execPath, [next, "build"], options);
  expect(built.stdout).toContain("/api/cited/[...path]");
  const typeChecked = await run(
    process.execPath,
    [join(host, "node_modules", "typescript", "bin", "tsc"), "--noEmit"],
    options,
  );
  expect(typeChecked.stdout).toBe("");
});

test("the minimal host answers with a citation whose PDF page opens with the cited lines highlighted", async ({
  page,
}) => {
  test.setTimeout(300_000);
  expect(host, "the build test runs first").not.toBe("");
  const adminToken = randomBytes(24).toString("base64url");
  service = await spawnService({
    env: {
      CKA_ADMIN_TOKEN: adminToken,
      CKA_TOKEN_SECRET: randomBytes(32).toString("base64url"),
      CKA_OCR: "off",
    },
  });
  const admin = createAdminClient({ baseUrl: service.url, adminToken });
  const assistant = await admin.createAssistant("Minimal host");
  await uploadFile(admin, assistant.id, join(repositoryRoot, "samples", "sources", samplePdf));
  await waitForDocuments(admin, assistant.id, {
    done: (documents) => documents.every((document) => document.status === "ready"),
    timeoutMs: 120_000,
  });
  const { key } = await admin.createKey(assistant.id, ["ask"]);

  const port = await freePort();
  const appUrl = `http://127.0.0.1:${port}`;
  app = spawn(
    process.execPath,
    [
      join(host, "node_modules", "next", "dist", "bin", "next"),
      "start",
      "--hostname",
      "127.0.0.1",
      "--port",
      String(port),
    ],
    {
      cwd: host,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...withoutCitedSettings(),
        CITED_BASE_URL: service.url,
        CITED_ASSISTANT_ID: assistant.id,
        CITED_API_KEY: key,
        CITED_APP_ORIGIN: appUrl,
      },
    },
  );
  const started = app;
  const collect = (chunk: Buffer) => {
    appLog = (appLog + chunk.toString()).slice(-4000);
  };
  started.stdout?.on("data", collect);
  started.stderr?.on("data", collect);
  await waitUntilAnswering(appUrl, started, () => appLog);

  await page.goto(appUrl);
  await page.getByRole("textbox", { name: "Question" }).fill(delayedQueueQuestion.question);
  await page.getByRole("button", { name: "Ask" }).click();
  await expect(page.getByRole("main")).toContainText(delayedQueueQuestion.firstSentence, { timeout: 60_000 });
  await expect(page.getByRole("textbox", { name: "Question" })).toHaveValue("");
  await page.getByTestId("cited-citation").first().click();
  await expect(page.getByTestId("cited-pdf-evidence")).toBeVisible({ timeout: 30_000 });
  await expect(page.locator("[data-cited-highlight]").first()).toBeVisible({ timeout: 30_000 });
  // The default app has no dark theme: in a dark system the answer must stay dark text on its white page.
  await page.emulateMedia({ colorScheme: "dark" });
  const answerText = await page
    .locator(".cited-root")
    .first()
    .evaluate((root) => getComputedStyle(root).color);
  expect(answerText).toBe("rgb(28, 25, 23)");
  await page.emulateMedia({ colorScheme: "light" });
  await screenshotsAtBothWidths(page, "minimal-host");
  expect(appLog).not.toContain("Error");
});
