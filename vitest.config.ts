import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["**/*.test.ts", "**/*.test.tsx"],
    exclude: ["node_modules/**", ".next/**", "e2e/**"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: "forks",
    // Removes the folders each test file made with temporaryDirectory(), after the file's own afterAll hooks.
    setupFiles: ["service/testing/vitest-setup.ts"],
  },
});
