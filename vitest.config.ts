import { defineConfig } from "vitest/config";
import { LongFilesFirst } from "./service/testing/vitest-sequencer.ts";

export default defineConfig({
  resolve: {
    // `server-only` throws outside Next.js's server build; Next.js itself enforces it in `next build`.
    alias: [
      {
        find: /^server-only$/,
        replacement: new URL("./lib/testing/server-only.ts", import.meta.url).pathname,
      },
      // The app's `@/…` imports (tsconfig paths), for tests of lib/.
      { find: /^@\//, replacement: new URL("./", import.meta.url).pathname },
    ],
  },
  test: {
    include: ["**/*.test.ts", "**/*.test.tsx"],
    exclude: ["node_modules/**", ".next/**", "e2e/**"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: "forks",
    // Most integration tests wait on a service process: two files at a time keep both cores busy (the
    // default on 2 cores is one), cutting the run by a third.
    maxWorkers: 2,
    // Each of the two processes runs file after file instead of one new process per file (~0.7 s each,
    // 103 files); the files keep no state between them beyond what their own hooks clean up.
    isolate: false,
    sequence: { sequencer: LongFilesFirst },
    // A PGlite cluster made once and copied for each test's database, instead of initdb each time.
    globalSetup: ["service/testing/pglite-template-setup.ts"],
    // Removes the folders each test file made with temporaryDirectory(), after the file's own afterAll hooks.
    setupFiles: ["service/testing/vitest-setup.ts"],
  },
});
