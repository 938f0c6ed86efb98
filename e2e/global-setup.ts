/** Once per Playwright run, before its workers start: the PGlite template the stacks copy (see pglite-template.ts). */
import { createPgliteTemplate } from "../service/testing/pglite-template.ts";

export default function globalSetup(): Promise<() => void> {
  return createPgliteTemplate();
}
