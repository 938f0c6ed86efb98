/**
 * The global setup of both Vitest and Playwright: once per run, before the test processes start, the PGlite
 * template they copy (see pglite-template.ts). Both runners take a default export that returns the teardown.
 */
import { createPgliteTemplate } from "./pglite-template.ts";

export default function setup(): Promise<() => void> {
  return createPgliteTemplate();
}
