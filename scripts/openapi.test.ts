import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { renderOpenApiDocument } from "./openapi-document.ts";

const committed = readFileSync(resolve(import.meta.dirname, "../sdk/openapi.json"), "utf8");

describe("sdk/openapi.json", () => {
  it("matches what the zod schemas generate (run `npm run openapi` after changing sdk/core)", () => {
    expect(committed).toBe(renderOpenApiDocument());
  });

  it("is OpenAPI 3.1 with the four public paths", () => {
    const document = JSON.parse(committed);
    expect(document.openapi).toMatch(/^3\.1\./);
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        "/external/v1/assistants/{assistant}/sessions/{external_session}/ask",
        "/external/v1/assistants/{assistant}/rag",
        "/chat/reference/pdf/{token}",
        "/chat/reference/pdf/refresh",
      ]),
    );
  });

  it("documents the bounds of the spec's section 8", () => {
    const { schemas } = JSON.parse(committed).components;
    expect(schemas.AskRequest.properties.message).toMatchObject({ minLength: 1, maxLength: 5000 });
    expect(schemas.RagRequest.properties.query).toMatchObject({ minLength: 1, maxLength: 500 });
    expect(schemas.RagRequest.properties.max_results).toMatchObject({ minimum: 1, maximum: 20, default: 10 });
    expect(schemas.RagRequest.properties.datasource_ids).toMatchObject({ maxItems: 50 });
  });
});
