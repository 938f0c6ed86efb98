/** Once per `vitest run`, before the test processes start: the PGlite template they copy (see pglite-template.ts). */
import { createPgliteTemplate } from "./pglite-template.ts";

export default function setup(): Promise<() => void> {
  return createPgliteTemplate();
}
