/** The public API's edge against a real service process: keys, scopes, headers, bodies, bounds, tenants and rate limits. */
// Longer than most files on purpose: one file is one service process, and processes are what the suite's time goes on.
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publicPaths } from "../../sdk/core/service-paths.ts";
import { ragResponseSchema, type Scope, sourceListSchema } from "../../sdk/core/wire.ts";
import { expectProblem, type PublicCall } from "../testing/public-api-client.ts";
import {
  evalPdfFolder,
  extractPdfPages,
  fixtureStartTimeout,
  type PublicApiFixture,
  startPublicApiFixture,
  testUser,
} from "../testing/public-api-fixture.ts";
import { type PublicEndpoint, publicEndpoints } from "../testing/public-endpoints.ts";

const rateLimit = 5;
let fixture: PublicApiFixture;

beforeAll(async () => {
  fixture = await startPublicApiFixture({
    files: [
      { path: join(evalPdfFolder, "debian-reference.en.pdf") },
      {
        path: extractPdfPages(join(evalPdfFolder, "gnuplot.pdf"), "1-12", "small.pdf"),
        datasource: "gnuplot",
      },
    ],
    env: { CKA_RATE_LIMIT_PER_MINUTE: String(rateLimit) },
  });
}, fixtureStartTimeout);
afterAll(async () => {
  await fixture?.stop();
});

/** Every call past the key guard counts against the key's 5 a minute, so each test takes its own keys. */
const freshKey = async (scopes: Scope[] = ["ask", "rag"], assistantId?: string) =>
  (await fixture.createKey(scopes, assistantId)).key;
const send = (call: PublicCall) => fixture.call(call);
const endpoints = publicEndpoints(() => fixture, { fileName: "debian-reference.en.pdf", page: 193 });
const jsonEndpoints = endpoints.filter((endpoint) => endpoint.json);
const byName = (name: PublicEndpoint["name"]) => endpoints.find((endpoint) => endpoint.name === name)!;

function crossed<Case extends object>(cases: Case[], over = endpoints) {
  return over.flatMap((endpoint) => cases.map((row) => ({ ...row, endpoint })));
}

describe("every endpoint", () => {
  it.each(endpoints)(
    "$name answers a valid request with 200, a request id and RateLimit headers",
    async (endpoint) => {
      const response = await send(endpoint.valid(await freshKey()));
      expect(response.status).toBe(200);
      expect(response.headers.get("X-Request-ID")).toMatch(/^req_/);
      expect(response.headers.get("RateLimit-Limit")).toBe(String(rateLimit));
      expect(response.headers.get("RateLimit-Remaining")).toBe(String(rateLimit - 1));
      await endpoint.checkSuccess(response);
    },
  );

  it.each(endpoints)("$name echoes the caller's X-Request-ID, on success and on error", async (endpoint) => {
    const valid = endpoint.valid(await freshKey());
    const ok = await send({ ...valid, headers: { ...valid.headers, "X-Request-ID": "host-42.a" } });
    expect(ok.headers.get("X-Request-ID")).toBe("host-42.a");
    await ok.arrayBuffer();
    const failed = await send({
      ...valid,
      key: null,
      headers: { ...valid.headers, "X-Request-ID": "host-43" },
    });
    expect((await expectProblem(failed, 401, "invalid_key")).request_id).toBe("host-43");
  });

  it("replaces an X-Request-ID that is not a safe token with its own", async () => {
    const valid = byName("rag").valid(await freshKey());
    const response = await send({ ...valid, headers: { "X-Request-ID": `bad id ${"x".repeat(200)}` } });
    expect(response.headers.get("X-Request-ID")).toMatch(/^req_[A-Za-z0-9_-]+$/);
    await response.arrayBuffer();
  });

  const authorizations = [
    { case: "no Authorization header", authorization: async () => null },
    { case: "a malformed key", authorization: async () => "Bearer not-a-key" },
    { case: "another scheme", authorization: async () => "Basic dXNlcjpwYXNzd29yZA==" },
    {
      case: "an unknown key",
      authorization: async () => `Bearer cka_live_${"A".repeat(20)}_${"b".repeat(43)}`,
    },
    {
      case: "a known key id with a wrong secret",
      authorization: async () => {
        const key = await freshKey();
        return `Bearer ${key.slice(0, 40)}${key[40] === "x" ? "y" : "x"}${key.slice(41)}`;
      },
    },
  ];
  it.each(crossed(authorizations))("$endpoint.name: $case is 401 invalid_key", async (row) => {
    const valid = row.endpoint.valid(null);
    const authorization = await row.authorization();
    const headers = { ...valid.headers, ...(authorization ? { Authorization: authorization } : {}) };
    await expectProblem(await send({ ...valid, headers }), 401, "invalid_key");
  });

  it.each(endpoints)("$name: a revoked key is refused on the very next request", async (endpoint) => {
    const key = await fixture.createKey([endpoint.scope]);
    const before = await send(endpoint.valid(key.key));
    expect(before.status).toBe(200);
    await before.arrayBuffer();
    await fixture.admin.revokeKey(key.id);
    await expectProblem(await send(endpoint.valid(key.key)), 401, "invalid_key");
  });

  it.each(endpoints)("$name: a key without its scope is 403 missing_scope", async (endpoint) => {
    const otherScope: Scope = endpoint.scope === "ask" ? "rag" : "ask";
    const key = await freshKey([otherScope]);
    await expectProblem(await send(endpoint.valid(key)), 403, "missing_scope");
  });

  const appCodes = [{ appCode: null }, { appCode: "" }, { appCode: "hosted" }, { appCode: "SELFSERVE" }];
  it.each(crossed(appCodes))("$endpoint.name: X-App-Code $appCode is 400 app_code_required", async (row) => {
    const valid = row.endpoint.valid(await freshKey());
    const headers = { ...valid.headers, "X-App-Code": row.appCode };
    await expectProblem(await send({ ...valid, headers }), 400, "app_code_required");
  });

  it.each(endpoints)(
    "$name: a key of assistant A used for assistant B is 404 and shows nothing of B",
    async (endpoint) => {
      const problem = await expectProblem(
        await send(endpoint.valid(await freshKey(), fixture.otherAssistant.id)),
        404,
        "not_found",
      );
      expect(Object.keys(problem)).not.toContain("results");
    },
  );
});

describe("assistants are separate tenants", () => {
  it.each(["ask", "rag"] as const)("%s: B's own key on A's assistant id is 404", async (name) => {
    const keyOfB = await freshKey(["ask", "rag"], fixture.otherAssistant.id);
    await expectProblem(await send(byName(name).valid(keyOfB)), 404, "not_found");
  });

  it.each(["ask", "rag"] as const)("%s: an assistant id that does not exist is 404", async (name) => {
    await expectProblem(await send(byName(name).valid(await freshKey(), "asst_doesnotexist00000000")), 404);
  });

  it("an unknown route is a 404 problem", async () => {
    await expectProblem(
      await send({ path: "/external/v2/nothing", key: await freshKey() }),
      404,
      "not_found",
    );
  });
});

describe("JSON bodies", () => {
  const unreadable: Array<{
    case: string;
    body?: string | Uint8Array;
    headers: Record<string, string | null>;
  }> = [
    { case: "bad JSON", body: '{"query": "split', headers: {} },
    { case: "a JSON array", body: "[]", headers: {} },
    { case: "JSON null", body: "null", headers: {} },
    { case: "Content-Type text/plain", body: undefined, headers: { "Content-Type": "text/plain" } },
    // Bytes, so fetch adds no text/plain of its own.
    {
      case: "no Content-Type",
      body: new TextEncoder().encode('{"query":"split"}'),
      headers: { "Content-Type": null },
    },
    { case: "invalid UTF-8", body: Uint8Array.of(0x7b, 0x22, 0xff, 0x22, 0x7d), headers: {} },
    {
      case: "form data",
      body: "query=split",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    },
  ];
  it.each(crossed(unreadable, jsonEndpoints))("$endpoint.name: $case is 400 invalid_request", async (row) => {
    const valid = row.endpoint.valid(await freshKey());
    // A body left undefined keeps the valid one, sent as a string so fetch adds no type of its own.
    const body = row.body ?? JSON.stringify(valid.body);
    const response = await send({ ...valid, body, headers: { ...valid.headers, ...row.headers } });
    await expectProblem(response, 400, "invalid_request");
  });

  it.each(jsonEndpoints)("$name: a body over 64 KiB is 413", async (endpoint) => {
    const valid = endpoint.valid(await freshKey());
    const body = { ...(valid.body as object), padding: "x".repeat(70_000) };
    await expectProblem(await send({ ...valid, body }), 413, "payload_too_large");
  });

  it.each(jsonEndpoints)("$name: a chunked body that grows past 64 KiB is 413", async (endpoint) => {
    const valid = endpoint.valid(await freshKey());
    const chunk = new TextEncoder().encode(`${JSON.stringify(valid.body).slice(0, -1)}, "padding": "`);
    const filler = new TextEncoder().encode("x".repeat(8192));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(sent === 0 ? chunk : filler);
        sent += 1;
        if (sent > 10) controller.close();
      },
    });
    await expectProblem(await send({ ...valid, body }), 413, "payload_too_large");
  });
});

const words = (length: number) => "how do I split a large file into pieces ".repeat(200).slice(0, length);

describe("ask bounds (spec section 8)", () => {
  const rows: Array<{ case: string; body?: object; session?: string; status: number; path?: string }> = [
    { case: "message of 0 characters", body: { message: "" }, status: 422, path: "message" },
    { case: "message of 1 character", body: { message: "x" }, status: 200 },
    { case: "message of 5,000 characters", body: { message: words(5000) }, status: 200 },
    { case: "message of 5,001 characters", body: { message: words(5001) }, status: 422, path: "message" },
    {
      case: "message of 5,000 emoji (10,000 UTF-16 units)",
      body: { message: "😀".repeat(5000) },
      status: 200,
    },
    { case: "message of 5,001 emoji", body: { message: "😀".repeat(5001) }, status: 422, path: "message" },
    { case: "message that is not a string", body: { message: 42 }, status: 422, path: "message" },
    { case: "no id_user", body: { id_user: undefined }, status: 422, path: "id_user" },
    { case: "empty id_user", body: { id_user: "" }, status: 422, path: "id_user" },
    { case: "detail_level VERBOSE", body: { detail_level: "VERBOSE" }, status: 422, path: "detail_level" },
    {
      case: "detail_level lower case",
      body: { detail_level: "succinct" },
      status: 422,
      path: "detail_level",
    },
    {
      case: "technicality_level EXPERT",
      body: { technicality_level: "EXPERT" },
      status: 422,
      path: "technicality_level",
    },
    {
      case: "every enum value named",
      body: { detail_level: "DETAILED", technicality_level: "SIMPLE" },
      status: 200,
    },
    { case: "a session that is not a UUID", session: "session-1", status: 422, path: "external_session" },
    {
      case: "a UUID session of another version (v7)",
      session: "01890a5d-ac96-774b-bcce-b302099a8057",
      status: 200,
    },
  ];
  it.each(rows)("$case → $status", async (row) => {
    const valid = byName("ask").valid(await freshKey());
    const path = row.session ? publicPaths.ask(fixture.assistant.id, row.session) : valid.path;
    const response = await send({ ...valid, path, body: { ...(valid.body as object), ...row.body } });
    if (row.status === 200) return byName("ask").checkSuccess(response);
    const problem = await expectProblem(response, row.status, "invalid_input");
    expect(problem.errors?.map((error) => error.path)).toContain(row.path);
  });
});

describe("rag bounds (spec section 8)", () => {
  const ids = (count: number) =>
    Array.from({ length: count }, (_, index) => `ds_unknown${String(index).padStart(6, "0")}`);
  const rows: Array<{ case: string; body: object; status: number; path?: string }> = [
    { case: "query of 0 characters", body: { query: "" }, status: 422, path: "query" },
    { case: "query of 1 character", body: { query: "x" }, status: 200 },
    { case: "query of 500 characters", body: { query: words(500) }, status: 200 },
    { case: "query of 501 characters", body: { query: words(501) }, status: 422, path: "query" },
    { case: "max_results 0", body: { max_results: 0 }, status: 422, path: "max_results" },
    { case: "max_results 1", body: { max_results: 1 }, status: 200 },
    { case: "max_results 20", body: { max_results: 20 }, status: 200 },
    { case: "max_results 21", body: { max_results: 21 }, status: 422, path: "max_results" },
    { case: "max_results 2.5", body: { max_results: 2.5 }, status: 422, path: "max_results" },
    { case: 'max_results "5"', body: { max_results: "5" }, status: 422, path: "max_results" },
    { case: "50 datasource_ids", body: { datasource_ids: ids(50) }, status: 200 },
    { case: "51 datasource_ids", body: { datasource_ids: ids(51) }, status: 422, path: "datasource_ids" },
    {
      case: "datasource_ids not an array",
      body: { datasource_ids: "ds_a" },
      status: 422,
      path: "datasource_ids",
    },
    { case: "empty id_user", body: { id_user: "" }, status: 422, path: "id_user" },
  ];
  it.each(rows)("$case → $status", async (row) => {
    const valid = byName("rag").valid(await freshKey());
    const response = await send({ ...valid, body: { ...(valid.body as object), ...row.body } });
    if (row.status === 200) {
      expect(response.status).toBe(200);
      const { results } = (await response.json()) as { results: unknown[] };
      expect(results.length).toBeLessThanOrEqual((row.body as { max_results?: number }).max_results ?? 10);
      return;
    }
    const problem = await expectProblem(response, row.status, "invalid_input");
    expect(problem.errors?.map((error) => error.path)).toContain(row.path);
  });
});

describe("PDF page and refresh bounds", () => {
  // The token covers every page these strings could be read as, so only reading `page` can refuse them.
  const pageRequest = async (page: string | null) => {
    const token = fixture.mintPdfToken({
      document: fixture.document("small.pdf").id,
      pages: [0, 1, 16, 100],
    });
    const path =
      page === null
        ? publicPaths.pdfPage(token, 0).replace(/\?page=.*$/, "")
        : publicPaths.pdfPage(token, page);
    return send({ path, key: await freshKey(), headers: { "X-External-User-Id": testUser } });
  };

  it.each(["abc", "-1", "1.5", null])("page=%j is 422", async (page) => {
    const problem = await expectProblem(await pageRequest(page), 422, "invalid_input");
    expect(problem.errors?.map((error) => error.path)).toContain("page");
  });

  it.each(["", "0x10", "1e2", " 1"])("page=%j, not a page index, is 422", async (page) => {
    const problem = await expectProblem(await pageRequest(page), 422, "invalid_input");
    expect(problem.errors?.map((error) => error.path)).toContain("page");
  });

  const rows = [
    { field: "token", value: undefined },
    { field: "token", value: "" },
    { field: "id_reference", value: "reference-1" },
    { field: "id_user", value: "" },
    { field: "external_session", value: "not-a-uuid" },
    { field: "external_session", value: undefined },
  ];
  it.each(rows)("refresh with $field = $value is 422", async (row) => {
    const valid = byName("pdf refresh").valid(await freshKey());
    const response = await send({ ...valid, body: { ...(valid.body as object), [row.field]: row.value } });
    const problem = await expectProblem(response, 422, "invalid_input");
    expect(problem.errors?.map((error) => error.path)).toContain(row.field);
  });

  it("a refresh for a token that was never issued is 401 invalid_token", async () => {
    const valid = byName("pdf refresh").valid(await freshKey());
    const body = { ...(valid.body as object), token: `${randomBytes(40).toString("base64url")}.abc` };
    await expectProblem(await send({ ...valid, body }), 401, "invalid_token");
  });
});

describe("rate limit per key", () => {
  it.each(endpoints)(
    `$name: request ${rateLimit + 1} of a key within a minute is 429 with Retry-After and RateLimit headers`,
    async (endpoint) => {
      const key = await freshKey();
      for (let request = 1; request <= rateLimit; request += 1) {
        const response = await send(endpoint.valid(key));
        expect(response.status).toBe(200);
        expect(response.headers.get("RateLimit-Remaining")).toBe(String(rateLimit - request));
        await response.arrayBuffer();
      }
      const limited = await send(endpoint.valid(key));
      const retryAfter = Number(limited.headers.get("Retry-After"));
      expect(limited.headers.get("RateLimit-Limit")).toBe(String(rateLimit));
      expect(limited.headers.get("RateLimit-Remaining")).toBe("0");
      expect(Number(limited.headers.get("RateLimit-Reset"))).toBe(retryAfter);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      await expectProblem(limited, 429, "rate_limited");
      // The limit is the key's: another key of the same assistant is still served.
      const other = await send(endpoint.valid(await freshKey()));
      expect(other.status).toBe(200);
      await other.arrayBuffer();
    },
  );
});

describe("sources", () => {
  it("lists the documents the assistant answers from, with their titles and pages, and how many there are", async () => {
    const response = await send({
      path: publicPaths.sources(fixture.assistant.id),
      key: await freshKey(["ask"]),
    });
    expect(response.status).toBe(200);
    const listed = sourceListSchema.parse(await response.json());
    expect(listed.total).toBe(fixture.documents.length);
    expect(listed.sources.map((source) => source.file_name)).toEqual([
      "debian-reference.en.pdf",
      "small.pdf",
    ]);
    const debian = fixture.document("debian-reference.en.pdf");
    expect(listed.sources[0]).toEqual({
      id_document: debian.id,
      id_datasource: debian.id_datasource,
      title: expect.stringMatching(/Debian Reference/),
      file_name: "debian-reference.en.pdf",
      pages: debian.pages,
    });
  });

  it("lists nothing, and counts none, for an assistant with no document ready", async () => {
    const key = await freshKey(["ask"], fixture.otherAssistant.id);
    const response = await send({ path: publicPaths.sources(fixture.otherAssistant.id), key });
    expect(sourceListSchema.parse(await response.json())).toEqual({ sources: [], total: 0 });
  });
});

describe("rag results", () => {
  const rag = async (body: object) => {
    const response = await send({ path: publicPaths.rag(fixture.assistant.id), key: await freshKey(), body });
    expect(response.status).toBe(200);
    return ragResponseSchema.parse(await response.json()).results;
  };
  const debian = () => fixture.document("debian-reference.en.pdf");
  const gnuplot = () => fixture.document("small.pdf");

  it("returns 10 results by default, ranked 1..10 by falling score", async () => {
    const results = await rag({ query: "file system" });
    expect(results.map((result) => result.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const scores = results.map((result) => result.metadata.score);
    expect(scores).toEqual([...scores].sort((left, right) => right - left));
  });

  it.each([1, 3, 20])("returns at most max_results (%i) results", async (maxResults) => {
    const results = await rag({ query: "file system", max_results: maxResults });
    expect(results).toHaveLength(maxResults);
    expect(results.map((result) => result.rank)).toEqual(results.map((_, index) => index + 1));
  });

  it("gives a PDF passage found for a user a token that serves its page to that user alone, and none without a user", async () => {
    const body = { query: "split a large file into 2000MiB chunks", max_results: 1 };
    const [found] = await rag({ ...body, id_user: testUser });
    const pdf = found?.metadata.pdf as { token: string; expires_at: string } | undefined;
    expect(pdf?.token).toEqual(expect.any(String));
    expect(Date.parse(pdf?.expires_at ?? "")).toBeGreaterThan(Date.now());
    const page = found?.metadata.page_index ?? -1;
    const key = await freshKey(["ask"]);
    const served = await send({
      path: publicPaths.pdfPage(pdf?.token ?? "", page),
      key,
      headers: { "X-External-User-Id": testUser },
    });
    expect(served.status).toBe(200);
    expect(served.headers.get("Content-Type")).toBe("application/pdf");
    const someoneElse = await send({
      path: publicPaths.pdfPage(pdf?.token ?? "", page),
      key,
      headers: { "X-External-User-Id": "someone-else" },
    });
    await expectProblem(someoneElse, 403, "forbidden");
    const [anonymous] = await rag(body);
    expect(anonymous?.metadata).not.toHaveProperty("pdf");
  });

  it("gives each PDF passage the metadata of the contract, pointing at the cited page", async () => {
    const [top, ...rest] = await rag({ query: "split a large file into 2000MiB chunks" });
    expect(top?.content).toContain("split -b 2000m");
    expect(top?.id_datasource).toBe(debian().id_datasource);
    expect(top?.metadata).toMatchObject({
      kind: "pdf_highlight",
      title: "Debian Reference",
      file_name: "debian-reference.en.pdf",
      id_document: debian().id,
      page_index: 193,
      // The page printed "166": the file's page 194, after the front matter's roman numerals.
      page_label: "166",
      page_width: 595.28,
      page_height: 841.89,
    });
    expect(top?.metadata.heading).toContain("9.8.5 Splitting a large file into small files");
    for (const result of [top!, ...rest]) {
      const metadata = result.metadata;
      for (const field of [
        "kind",
        "title",
        "file_name",
        "page_index",
        "page_indices",
        "page_width",
        "page_height",
        "rects",
        "heading",
        "score",
        "id_document",
      ]) {
        expect(metadata, `${result.id_element} ${field}`).toHaveProperty(field);
      }
      expect(metadata.page_indices?.[0]).toBe(metadata.page_index);
      expect(metadata.rects?.length).toBeGreaterThan(0);
      for (const [x0, y0, x1, y1] of metadata.rects ?? []) {
        // Some lines of the PDF really run past the right edge, so a rect need only overlap the page.
        expect(
          x0 < x1 && y0 < y1 && x0 < metadata.page_width! && y0 < metadata.page_height! && x1 > 0 && y1 > 0,
        ).toBe(true);
      }
    }
  });

  it("keeps only the datasources named in datasource_ids", async () => {
    const query = "gnuplot version 5.4";
    const all = await rag({ query, max_results: 20 });
    const sources = (results: typeof all) => new Set(results.map((result) => result.id_datasource));
    expect(sources(all)).toEqual(new Set([debian().id_datasource, gnuplot().id_datasource]));

    const onlyGnuplot = await rag({ query, max_results: 20, datasource_ids: [gnuplot().id_datasource] });
    expect(onlyGnuplot.length).toBeGreaterThan(0);
    expect(sources(onlyGnuplot)).toEqual(new Set([gnuplot().id_datasource]));
    expect(onlyGnuplot.map((result) => result.rank)).toEqual(onlyGnuplot.map((_, index) => index + 1));

    const onlyDebian = await rag({ query, max_results: 20, datasource_ids: [debian().id_datasource] });
    expect(onlyDebian.length).toBeGreaterThan(0);
    expect(sources(onlyDebian)).toEqual(new Set([debian().id_datasource]));
  });

  it("matches nothing for datasource ids that do not exist", async () => {
    expect(await rag({ query: "file system", datasource_ids: ["ds_doesnotexist0000", "default"] })).toEqual(
      [],
    );
  });

  it("does not search another assistant's datasource through datasource_ids", async () => {
    const keyOfB = await freshKey(["rag"], fixture.otherAssistant.id);
    const response = await send({
      path: publicPaths.rag(fixture.otherAssistant.id),
      key: keyOfB,
      body: { query: "file system", datasource_ids: [debian().id_datasource] },
    });
    expect(ragResponseSchema.parse(await response.json()).results).toEqual([]);
  });
});
