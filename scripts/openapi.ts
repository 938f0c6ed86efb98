/** `npm run openapi`: writes sdk/openapi.json from the zod schemas. */
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { renderOpenApiDocument } from "./openapi-document.ts";

const target = resolve(import.meta.dirname, "../sdk/openapi.json");
writeFileSync(target, renderOpenApiDocument());
console.log(`wrote ${target}`);
