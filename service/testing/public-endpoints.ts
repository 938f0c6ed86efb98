/** The public endpoints as tables can drive them: a valid request for each, and what its 200 must hold. */
import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { reduceAnswerText } from "../../sdk/core/index.ts";
import { publicPaths } from "../../sdk/core/service-paths.ts";
import {
  pdfRefreshResponseSchema,
  ragResponseSchema,
  type Scope,
  sourceListSchema,
} from "../../sdk/core/wire.ts";
import type { PublicCall } from "./public-api-client.ts";
import { mintedReference, type PublicApiFixture, testSession, testUser } from "./public-api-fixture.ts";

export interface PublicEndpoint {
  name: "ask" | "rag" | "sources" | "pdf page" | "pdf refresh";
  scope: Scope;
  /** Whether the request has a JSON body (and so can be unreadable, oversize or out of bounds). */
  json: boolean;
  /** A request the endpoint answers with 200, made fresh each time (a refresh renews a token only once). */
  valid(key: string | null, assistantId?: string): PublicCall;
  /** Reads a 200 response and checks its body. */
  checkSuccess(response: Response): Promise<void>;
}

/** `page` is a page of `fileName` in the fixture; a PDF token is minted for it. */
export function publicEndpoints(
  fixture: () => PublicApiFixture,
  pdf: { fileName: string; page: number },
): PublicEndpoint[] {
  const mint = (assistantId: string | undefined, ttlSeconds: number) =>
    fixture().mintPdfToken(
      {
        pages: [pdf.page],
        document: fixture().document(pdf.fileName).id,
        ...(assistantId ? { assistant: assistantId } : {}),
      },
      ttlSeconds,
    );
  return [
    {
      name: "ask",
      scope: "ask",
      json: true,
      valid: (key, assistantId = fixture().assistant.id) => ({
        path: publicPaths.ask(assistantId, randomUUID()),
        key,
        body: { id_user: testUser, message: "How do I split a large file into small files?" },
      }),
      async checkSuccess(response) {
        expect(response.headers.get("Content-Type")).toMatch(/^application\/x-ndjson\b/);
        expect(reduceAnswerText(await response.text()).phase).toBe("done");
      },
    },
    {
      name: "rag",
      scope: "rag",
      json: true,
      valid: (key, assistantId = fixture().assistant.id) => ({
        path: publicPaths.rag(assistantId),
        key,
        body: { query: "split a large file" },
      }),
      async checkSuccess(response) {
        expect(response.headers.get("Content-Type")).toMatch(/^application\/json\b/);
        expect(ragResponseSchema.parse(await response.json()).results.length).toBeGreaterThan(0);
      },
    },
    {
      name: "sources",
      scope: "ask",
      json: false,
      valid: (key, assistantId = fixture().assistant.id) => ({ path: publicPaths.sources(assistantId), key }),
      async checkSuccess(response) {
        expect(response.headers.get("Content-Type")).toMatch(/^application\/json\b/);
        expect(sourceListSchema.parse(await response.json()).sources.length).toBeGreaterThan(0);
      },
    },
    {
      name: "pdf page",
      scope: "ask",
      json: false,
      valid: (key, assistantId) => ({
        path: publicPaths.pdfPage(mint(assistantId, 600), pdf.page),
        key,
        headers: { "X-External-User-Id": testUser },
      }),
      async checkSuccess(response) {
        expect(response.headers.get("Content-Type")).toBe("application/pdf");
        const head = new TextDecoder().decode((await response.arrayBuffer()).slice(0, 5));
        expect(head).toBe("%PDF-");
      },
    },
    {
      name: "pdf refresh",
      scope: "ask",
      json: true,
      valid: (key, assistantId) => ({
        path: publicPaths.pdfRefresh,
        key,
        body: {
          token: mint(assistantId, -60),
          id_reference: mintedReference,
          id_user: testUser,
          external_session: testSession,
        },
      }),
      async checkSuccess(response) {
        expect(response.headers.get("Content-Type")).toMatch(/^application\/json\b/);
        pdfRefreshResponseSchema.parse(await response.json());
      },
    },
  ];
}
