import { defineConfig } from "@playwright/test";
import { chromiumLaunchOptions } from "./e2e/chromium.ts";

const port = Number(process.env.E2E_PORT ?? 3100);
const longFiles = ["**/app-supabase-session.spec.ts", "**/pdf-evidence.spec.ts"];

export default defineConfig({
  testDir: "e2e",
  testMatch: "**/*.spec.ts",
  // Its own folder: Playwright empties outputDir at start, and test-results/ also holds the Vitest report.
  outputDir: "test-results/playwright-artifacts",
  timeout: 60_000,
  // The app's pages are server-rendered by `next start` on a small machine that may be busy.
  expect: { timeout: 10_000 },
  retries: 0,
  // Two at a time: much of a spec's time is waiting (on a service, on a token to expire), and each worker
  // starts its own stacks on free ports.
  workers: 2,
  reporter: [["list"]],
  // A PGlite cluster made once and copied for each stack's databases, instead of initdb each time.
  globalSetup: "./service/testing/pglite-template-setup.ts",
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: chromiumLaunchOptions,
    // Recording a trace of every test to keep the failed ones' cost a quarter of the run's time (evidence and
    // accessibility specs: 85-88 s without, 112-130 s with). A failure keeps a screenshot, and the app
    // fixtures attach the app's and the service's last log lines; `--trace on` records traces when needed.
    trace: "off",
    screenshot: "only-on-failure",
  },
  // Files are handed to the workers in this order. The two whose tests wait longest in one block (a
  // token's expiry; the evidence fixture's ingestion and recorded answers) go first, so the short files
  // fill the end of the run instead of one worker finishing them alone while the other idles.
  projects: [
    { name: "long", testMatch: longFiles },
    { name: "app", testIgnore: longFiles },
  ],
  // For the evidence harness (e2e/pdf-evidence.spec.ts). The app's own specs (e2e/app-*.spec.ts)
  // start a service and `next start` of their own, configured for it (e2e/support/app-stack.ts);
  // e2e/app-supabase*.spec.ts add a Supabase stand-in (e2e/support/supabase-stack.ts).
  webServer: {
    command: `node node_modules/next/dist/bin/next start --hostname 127.0.0.1 --port ${port}`,
    // A page that answers without the app's settings (the home page shows setup help then, with a 200).
    url: `http://127.0.0.1:${port}/harness/evidence`,
    reuseExistingServer: false,
    // The evidence harness page (app/harness) answers only in tests. The app's settings are blanked,
    // so a developer's .env.local (which Next.js reads, without overriding what is set) changes nothing.
    env: {
      CITED_E2E_HARNESS: "1",
      CITED_BASE_URL: "",
      CITED_ASSISTANT_ID: "",
      CITED_API_KEY: "",
      CITED_SESSION_SECRET: "",
      SUPABASE_URL: "",
      SUPABASE_PUBLISHABLE_KEY: "",
      SUPABASE_JWT_SECRET: "",
    },
    timeout: 120_000,
  },
});
