/** The PDF page slice and PDF refresh against a real service: the right pages, and tokens that are short-lived, bound and unforgeable. */
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reduceAnswerText } from "../../sdk/core/index.ts";
import { publicPaths } from "../../sdk/core/service-paths.ts";
import {
  type PdfHighlightReference,
  pdfRefreshResponseSchema,
  pdfSliceHeaders,
} from "../../sdk/core/wire.ts";
import { expectProblem, type PublicCall } from "../testing/public-api-client.ts";
import {
  evalPdfFolder,
  extractPdfPages,
  fixtureStartTimeout,
  mintedReference,
  type PublicApiFixture,
  startPublicApiFixture,
  testSession,
  testUser,
} from "../testing/public-api-fixture.ts";
import { temporaryDirectory } from "../testing/temporary-directory.ts";

const tokenTtlSeconds = 1;
const debianPath = join(evalPdfFolder, "debian-reference.en.pdf");
const smallPath = extractPdfPages(join(evalPdfFolder, "gnuplot.pdf"), "1-12", "small.pdf");
const twoPagePath = extractPdfPages(join(evalPdfFolder, "gnuplot.pdf"), "1-2", "two-pages.pdf");
const originals: Record<string, string> = {
  "small.pdf": smallPath,
  "two-pages.pdf": twoPagePath,
  "debian-reference.en.pdf": debianPath,
};

let fixture: PublicApiFixture;
let askKey: string;

beforeAll(async () => {
  fixture = await startPublicApiFixture({
    files: [{ path: debianPath }, { path: smallPath }, { path: twoPagePath }],
    env: { CKA_TOKEN_TTL_SECONDS: String(tokenTtlSeconds) },
  });
  askKey = (await fixture.createKey(["ask"])).key;
}, fixtureStartTimeout);
afterAll(async () => {
  await fixture?.stop();
});

const send = (call: Omit<PublicCall, "key">) => fixture.call({ key: askKey, ...call });
const getPage = (token: string, page: number | string, user: string | null = testUser) =>
  send({ path: publicPaths.pdfPage(token, page), headers: { "X-External-User-Id": user } });
const refresh = (body: Record<string, unknown>) =>
  send({
    path: publicPaths.pdfRefresh,
    body: { id_reference: mintedReference, id_user: testUser, external_session: testSession, ...body },
  });
const mint = (fileName: string, pages: number[], ttlSeconds = 600) =>
  fixture.mintPdfToken({ document: fixture.document(fileName).id, pages }, ttlSeconds);

function pageText(path: string, page: number): string {
  return execFileSync("pdftotext", ["-f", String(page), "-l", String(page), path, "-"], { encoding: "utf8" });
}

function pageCount(path: string): number {
  const info = execFileSync("pdfinfo", [path], { encoding: "utf8" });
  return Number(/^Pages:\s+(\d+)/m.exec(info)?.[1]);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("PDF page slices", () => {
  const slices = [
    { file: "small.pdf", page: 0, start: 0, pages: 3 },
    { file: "small.pdf", page: 5, start: 4, pages: 3 },
    { file: "small.pdf", page: 11, start: 9, pages: 3 },
    { file: "debian-reference.en.pdf", page: 0, start: 0, pages: 3 },
    { file: "debian-reference.en.pdf", page: 193, start: 192, pages: 3 },
    { file: "debian-reference.en.pdf", page: 260, start: 258, pages: 3 },
    { file: "two-pages.pdf", page: 0, start: 0, pages: 2 },
    { file: "two-pages.pdf", page: 1, start: 0, pages: 2 },
  ];
  it.each(slices)("page $page of $file is served as its $pages pages from $start", async (row) => {
    const document = fixture.document(row.file);
    const response = await getPage(mint(row.file, [row.page]), row.page);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/pdf");
    expect(response.headers.get(pdfSliceHeaders.sliceStart)).toBe(String(row.start));
    // The OpenAPI contract: the pages of the whole document, so a viewer can say "page 194 of 261".
    expect(response.headers.get(pdfSliceHeaders.pageCount)).toBe(String(document.pages));
    const maxAge = Number(/^private, max-age=(\d+)$/.exec(response.headers.get("Cache-Control") ?? "")?.[1]);
    expect(maxAge).toBeGreaterThan(0);
    // Never longer than the 600 s the token has left.
    expect(maxAge).toBeLessThanOrEqual(600);

    const slicePath = join(temporaryDirectory("cka-slice-"), "slice.pdf");
    writeFileSync(slicePath, new Uint8Array(await response.arrayBuffer()));
    expect(pageCount(slicePath)).toBe(row.pages);
    const texts: string[] = [];
    for (let index = 0; index < row.pages; index += 1) {
      // pdftotext counts pages from 1.
      const original = pageText(originals[row.file]!, row.start + index + 1);
      texts.push(pageText(slicePath, index + 1));
      expect(texts[index], `slice page ${index}`).toBe(original);
    }
    // Equal texts prove nothing if all are empty (debian's cover page is an image).
    expect(texts.join("").trim()).not.toBe("");
  });

  it("serves any page of a reference that spans pages, and no other", async () => {
    const token = mint("small.pdf", [5, 6]);
    for (const page of [5, 6]) {
      const response = await getPage(token, page);
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    }
    for (const page of [4, 7, 0, 300]) {
      const problem = await expectProblem(await getPage(token, page), 422, "invalid_input");
      expect(problem.errors?.map((error) => error.path)).toEqual(["page"]);
    }
  });
});

describe("PDF tokens", () => {
  const flip = (text: string, index: number) =>
    `${text.slice(0, index)}${text[index] === "A" ? "B" : "A"}${text.slice(index + 1)}`;
  const tamperings = [
    {
      case: "a changed payload character",
      tamper: (body: string, signature: string) => `${flip(body, 20)}.${signature}`,
    },
    {
      case: "a changed signature character",
      tamper: (body: string, signature: string) => `${body}.${flip(signature, 10)}`,
    },
    { case: "no signature", tamper: (body: string) => body },
    { case: "a third part", tamper: (body: string, signature: string) => `${body}.${signature}.x` },
    { case: "another secret's signature", tamper: (body: string) => `${body}.${"x".repeat(43)}` },
  ];

  it.each(tamperings)("a token with $case is 401 invalid_token on the page and the refresh", async (row) => {
    const [body, signature] = mint("small.pdf", [5]).split(".") as [string, string];
    const tampered = row.tamper(body, signature);
    await expectProblem(await getPage(tampered, 5), 401, "invalid_token");
    const [expiredBody, expiredSignature] = mint("small.pdf", [5], -60).split(".") as [string, string];
    await expectProblem(
      await refresh({ token: row.tamper(expiredBody, expiredSignature) }),
      401,
      "invalid_token",
    );
  });

  it.each([
    { case: "another user", user: "user-2" },
    { case: "no X-External-User-Id", user: null },
  ])("$case asking for a page is 403", async (row) => {
    await expectProblem(await getPage(mint("small.pdf", [5]), 5, row.user), 403, "forbidden");
  });

  it("a reference token from an answer opens its cited page, then expires after CKA_TOKEN_TTL_SECONDS and renews once", async () => {
    const session = randomUUID();
    const response = await send({
      path: publicPaths.ask(fixture.assistant.id, session),
      body: { id_user: testUser, message: "How do I split a large file into small files?" },
    });
    const answer = reduceAnswerText(await response.text());
    const reference = Object.values(answer.references).find(
      (candidate): candidate is PdfHighlightReference => candidate.kind === "pdf_highlight",
    );
    if (!reference) throw new Error(`no PDF reference in: ${answer.text}`);
    const opened = await getPage(reference.pdf.token, reference.page_index);
    expect(opened.status).toBe(200);
    expect(opened.headers.get(pdfSliceHeaders.sliceStart)).toBe(String(reference.page_index - 1));
    await opened.arrayBuffer();

    await sleep(Date.parse(reference.pdf.expires_at) - Date.now() + 50);
    await expectProblem(await getPage(reference.pdf.token, reference.page_index), 401, "token_expired");

    const identifiers = { id_reference: reference.id, id_user: testUser, external_session: session };
    const requested = Date.now();
    const renewed = await refresh({ token: reference.pdf.token, ...identifiers });
    expect(renewed.status).toBe(200);
    const fresh = pdfRefreshResponseSchema.parse(await renewed.json());
    // The renewed token lives the configured TTL in full, counted from the refresh.
    expect(Date.parse(fresh.expires_at)).toBeGreaterThanOrEqual(requested + tokenTtlSeconds * 1000);
    const reopened = await getPage(fresh.token, reference.page_index);
    expect(reopened.status).toBe(200);
    await reopened.arrayBuffer();

    await expectProblem(
      await refresh({ token: reference.pdf.token, ...identifiers }),
      409,
      "refresh_not_allowed",
    );
  });
});

describe("PDF refresh", () => {
  it("refuses a token that has not expired: 409 refresh_not_allowed", async () => {
    await expectProblem(await refresh({ token: mint("small.pdf", [5]) }), 409, "refresh_not_allowed");
  });

  it("renews an expired token once: the new token works, the old one cannot be renewed again", async () => {
    const expired = mint("small.pdf", [5], -60);
    await expectProblem(await getPage(expired, 5), 401, "token_expired");
    const renewed = await refresh({ token: expired });
    expect(renewed.status).toBe(200);
    const { token } = pdfRefreshResponseSchema.parse(await renewed.json());
    const page = await getPage(token, 5);
    expect(page.status).toBe(200);
    await page.arrayBuffer();
    await expectProblem(await refresh({ token: expired }), 409, "refresh_not_allowed");
  });

  it.each([
    { field: "id_reference", value: "ref_someotherreference00" },
    { field: "id_user", value: "user-2" },
    { field: "external_session", value: "9b2e4c1d-5a6f-4e7b-8c9d-0e1f2a3b4c5d" },
  ])("a refresh naming another $field is 403 and does not use up the renewal", async (row) => {
    const expired = mint("small.pdf", [5], -60);
    await expectProblem(await refresh({ token: expired, [row.field]: row.value }), 403, "forbidden");
    const renewed = await refresh({ token: expired });
    expect(renewed.status).toBe(200);
    await renewed.arrayBuffer();
  });

  it("a renewed token stays bound to its user", async () => {
    const renewed = await refresh({ token: mint("small.pdf", [5], -60) });
    const { token } = pdfRefreshResponseSchema.parse(await renewed.json());
    await expectProblem(await getPage(token, 5, "user-2"), 403, "forbidden");
  });
});
