/** A PDF reference renews once (the spec: "once per expired reference"): its renewal cannot be renewed in turn. */
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reduceAnswerText } from "../../sdk/core/index.ts";
import { publicPaths } from "../../sdk/core/service-paths.ts";
import { type PdfHighlightReference, pdfRefreshResponseSchema } from "../../sdk/core/wire.ts";
import { expectProblem, type PublicCall } from "../testing/public-api-client.ts";
import {
  evalPdfFolder,
  extractPdfPages,
  fixtureStartTimeout,
  type PublicApiFixture,
  startPublicApiFixture,
  testUser,
} from "../testing/public-api-fixture.ts";

const introductionPath = extractPdfPages(join(evalPdfFolder, "gnuplot.pdf"), "21-23", "introduction.pdf");

let fixture: PublicApiFixture;
let askKey: string;

beforeAll(async () => {
  fixture = await startPublicApiFixture({
    files: [{ path: introductionPath }],
    env: { CKA_TOKEN_TTL_SECONDS: "1" },
  });
  askKey = (await fixture.createKey(["ask"])).key;
}, fixtureStartTimeout);
afterAll(async () => {
  await fixture?.stop();
});

const send = (call: Omit<PublicCall, "key">) => fixture.call({ key: askKey, ...call });
const untilExpired = (expiresAt: string) =>
  new Promise((resolve) => setTimeout(resolve, Date.parse(expiresAt) - Date.now() + 50));

describe("renewing a PDF reference", () => {
  it("renews an expired reference once; the renewed token, once expired, is 409 refresh_not_allowed", async () => {
    const session = randomUUID();
    const response = await send({
      path: publicPaths.ask(fixture.assistant.id, session),
      body: { id_user: testUser, message: "Which platforms does gnuplot run on?" },
    });
    const answer = reduceAnswerText(await response.text());
    const reference = Object.values(answer.references).find(
      (candidate): candidate is PdfHighlightReference => candidate.kind === "pdf_highlight",
    );
    if (!reference) throw new Error(`no PDF reference in: ${answer.text}`);
    const refresh = (token: string) =>
      send({
        path: publicPaths.pdfRefresh,
        body: { token, id_reference: reference.id, id_user: testUser, external_session: session },
      });

    await untilExpired(reference.pdf.expires_at);
    const renewed = await refresh(reference.pdf.token);
    expect(renewed.status).toBe(200);
    const fresh = pdfRefreshResponseSchema.parse(await renewed.json());

    await untilExpired(fresh.expires_at);
    await expectProblem(await refresh(fresh.token), 409, "refresh_not_allowed");
  });
});
