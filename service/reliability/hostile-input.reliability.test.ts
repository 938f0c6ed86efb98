/**
 * Generated hostile requests against a real service process: every public and admin endpoint, every
 * string field and path segment, headers, bodies of the wrong type and size, raw bytes the HTTP parser
 * rejects, tampered tokens and hostile uploads. Whatever is sent: never a 5xx, never a hang, never a
 * stack trace, every refusal problem details with its X-Request-ID, and the service keeps answering.
 */

import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publicPaths } from "../../sdk/core/service-paths.ts";
import type { Scope } from "../../sdk/core/wire.ts";
import { createServiceHandler, type ServiceHandler } from "../../sdk/server/create-service-handler.ts";
import { createSqlServiceStore } from "../../sdk/server/sql-service-store.ts";
import { inMemoryPgliteOptions } from "../testing/pglite-template.ts";
import {
  evalPdfFolder,
  extractPdfPages,
  type PublicApiFixture,
  startPublicApiFixture,
  testSession,
  testUser,
} from "../testing/public-api-fixture.ts";
import { temporaryDirectory } from "../testing/temporary-directory.ts";
import { budget } from "./budget.ts";
import { hostileFiles, oddFileNames } from "./hostile-files.ts";
import {
  anyJson,
  deeplyNested,
  hostileSegment,
  hostileString,
  nearMisses,
  withHostileField,
} from "./hostile-values.ts";
import { sendRaw } from "./raw-http.ts";
import { send, violations } from "./response-checks.ts";
import { count, createTally, statusClass, writeTally } from "./tally.ts";

const tally = createTally();
let fixture: PublicApiFixture;
let key: string;
let adminToken: string;
const pdfName = "gnuplot-30-34.pdf";

beforeAll(async () => {
  fixture = await startPublicApiFixture({
    process: "spawned",
    files: [{ path: extractPdfPages(join(evalPdfFolder, "gnuplot.pdf"), "30-34", pdfName) }],
    env: { CKA_LOG: "info", CKA_RATE_LIMIT_PER_MINUTE: "100000000" },
  });
  key = (await fixture.createKey(["ask", "rag"] satisfies Scope[])).key;
  adminToken = fixture.adminToken;
}, 200_000);

afterAll(async () => {
  writeTally("hostile-input", tally);
  await fixture?.stop();
});

const publicHeaders = (overrides: Record<string, string> = {}) => ({
  Authorization: `Bearer ${key}`,
  "X-App-Code": "selfserve",
  "Content-Type": "application/json",
  ...overrides,
});

/** Sends, and fails the property with every violation when the answer breaks a rule. */
async function expectWellBehaved(path: string, init: RequestInit): Promise<void> {
  const sent = await send(tally, `${fixture.url}${path}`, init);
  if (sent === null) return;
  expect(sent.problems, `${init.method ?? "GET"} ${path.slice(0, 200)}`).toEqual([]);
}

/**
 * The service still answers a plain rag question with passages. On a connection of its own: a pooled one
 * may be one the service is closing after an idle while, which a POST cannot safely be retried on.
 */
async function expectCanary(): Promise<void> {
  const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const sent = httpRequest(
      `${fixture.url}${publicPaths.rag(fixture.assistant.id)}`,
      { method: "POST", headers: publicHeaders(), agent: false, timeout: budget.requestTimeoutMs },
      (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          body += chunk;
        });
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    sent.on("timeout", () => sent.destroy(new Error("the canary got no answer in time")));
    sent.on("error", reject);
    sent.end(JSON.stringify({ query: "gnuplot" }));
  });
  count(tally.checked, "canary requests answered");
  expect(answer.status, answer.body).toBe(200);
  expect((JSON.parse(answer.body) as { results: unknown[] }).results.length).toBeGreaterThan(0);
}

const runs = { numRuns: budget.propertyRuns, endOnFailure: true };

describe("hostile input to the public API", () => {
  it("JSON bodies with hostile fields, wrong types, deep nesting or too many bytes", async () => {
    const bodies = {
      ask: { id_user: testUser, message: "How do I plot a function?", detail_level: "BALANCED" },
      rag: { query: "plot a function", max_results: 5 },
      refresh: { token: "x", id_reference: "ref_x", id_user: testUser, external_session: testSession },
    };
    const paths = {
      ask: () => publicPaths.ask(fixture.assistant.id, randomUUID()),
      rag: () => publicPaths.rag(fixture.assistant.id),
      refresh: () => publicPaths.pdfRefresh,
    };
    const body = (endpoint: keyof typeof bodies) =>
      fc.oneof(
        withHostileField(bodies[endpoint]).map((value) => JSON.stringify(value)),
        anyJson.map((value) => JSON.stringify(value)),
        fc.constantFrom(deeplyNested(100_000), "{", "", "\u0000", `{"query":"${"a".repeat(70_000)}"}`),
      );
    await fc.assert(
      fc.asyncProperty(
        fc
          .constantFrom("ask", "rag", "refresh" as const)
          .chain((endpoint) => fc.tuple(fc.constant(endpoint), body(endpoint))),
        async ([endpoint, text]) => {
          await expectWellBehaved(paths[endpoint](), {
            method: "POST",
            headers: publicHeaders(),
            body: text,
          });
        },
      ),
      runs,
    );
    await expectCanary();
  });

  it("hostile and near-miss path segments", async () => {
    const assistant = fc.oneof(hostileSegment, nearMisses(fixture.assistant.id).map(encodeSegment));
    const session = fc.oneof(hostileSegment, nearMisses(testSession).map(encodeSegment));
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.tuple(assistant, session).map(([a, s]) => ({ method: "POST", path: publicPaths.ask(a, s) })),
          assistant.map((a) => ({ method: "POST", path: publicPaths.rag(a) })),
          hostileSegment.map((token) => ({ method: "GET", path: `/chat/reference/pdf/${token}?page=1` })),
          hostileSegment.map((page) => ({ method: "GET", path: `/chat/reference/pdf/x?page=${page}` })),
          hostileSegment.map((rest) => ({ method: "GET", path: `/external/v1/${rest}` })),
        ),
        async ({ method, path }) => {
          await expectWellBehaved(path, {
            method,
            headers: publicHeaders({ "X-External-User-Id": testUser }),
            ...(method === "POST"
              ? { body: JSON.stringify({ id_user: testUser, message: "plot", query: "plot" }) }
              : {}),
          });
        },
      ),
      runs,
    );
    await expectCanary();
  });

  it("hostile headers: near-miss keys, app codes, content types and user ids", async () => {
    const latin1 = hostileString.map((text) => text.replace(/[^\u0020-\u007e\u0080-\u00ff]/g, "?"));
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          authorization: fc.oneof(
            nearMisses(key).map((variant) => `Bearer ${variant}`),
            latin1,
            fc.constant(`Basic ${key}`),
          ),
          appCode: fc.oneof(fc.constant("selfserve"), latin1),
          contentType: fc.oneof(
            fc.constant("application/json"),
            latin1,
            fc.constantFrom("text/plain", "multipart/form-data", "application/json; charset=latin1"),
          ),
        }),
        async (headers) => {
          await expectWellBehaved(publicPaths.rag(fixture.assistant.id), {
            method: "POST",
            headers: {
              Authorization: headers.authorization,
              "X-App-Code": headers.appCode,
              "Content-Type": headers.contentType,
            },
            body: JSON.stringify({ query: "plot" }),
          });
        },
      ),
      runs,
    );
    await expectCanary();
  });

  it("tampered PDF tokens and hostile user ids on the PDF endpoints", async () => {
    const document = fixture.document(pdfName);
    const valid = fixture.mintPdfToken({ pages: [1], document: document.id });
    const expired = fixture.mintPdfToken({ pages: [1], document: document.id }, -60);
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(nearMisses(valid), nearMisses(expired)),
        fc.oneof(
          fc.constant(testUser),
          hostileString.map((text) => text.replace(/[^\u0020-\u007e]/g, "_")),
        ),
        async (token, user) => {
          await expectWellBehaved(publicPaths.pdfPage(encodeSegment(token), 1), {
            headers: publicHeaders({ "X-External-User-Id": user }),
          });
          await expectWellBehaved(publicPaths.pdfRefresh, {
            method: "POST",
            headers: publicHeaders(),
            body: JSON.stringify({
              token,
              id_reference: "ref_minted0000000000000",
              id_user: user,
              external_session: testSession,
            }),
          });
        },
      ),
      runs,
    );
    await expectCanary();
  });
});

describe("hostile input to the sharing area (admin API)", () => {
  it("hostile bodies, path segments and admin tokens", async () => {
    const adminHeaders = (token = adminToken) => ({
      Authorization: `Bearer ${token}`,
      "Content-Type": "application/json",
    });
    const call = fc.oneof(
      withHostileField({ name: "Support" }).map((body) => ({
        method: "POST",
        path: "/admin/v1/assistants",
        body,
      })),
      fc
        .tuple(hostileSegment, withHostileField({ name: "Renamed" }))
        .map(([id, body]) => ({ method: "PATCH", path: `/admin/v1/assistants/${id}`, body })),
      withHostileField({ scopes: ["rag"], name: "k" }).map((body) => ({
        method: "POST",
        path: `/admin/v1/assistants/${fixture.otherAssistant.id}/keys`,
        body,
      })),
      hostileSegment.map((id) => ({ method: "DELETE", path: `/admin/v1/keys/${id}`, body: undefined })),
      hostileSegment.map((id) => ({
        method: "GET",
        path: `/admin/v1/assistants/${id}/documents`,
        body: undefined,
      })),
      hostileSegment.map((id) => ({
        method: "DELETE",
        path: `/admin/v1/assistants/${fixture.otherAssistant.id}/documents/${id}`,
        body: undefined,
      })),
      hostileSegment.map((id) => ({
        method: "GET",
        path: `/admin/v1/assistants/${id}/share`,
        body: undefined,
      })),
    );
    await fc.assert(
      fc.asyncProperty(call, fc.option(nearMisses(adminToken), { freq: 3 }), async (request, token) => {
        const headers = adminHeaders(token ?? adminToken);
        if (/[^\u0020-\u00ff]/.test(headers.Authorization)) return;
        await expectWellBehaved(request.path, {
          method: request.method,
          headers,
          ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
        });
      }),
      runs,
    );
    await expectCanary();
  });

  it("hostile uploads: malformed, truncated, encrypted, bomb-like and script-carrying PDFs, bad Office and EPUB files, bad images, odd names", async () => {
    // Built first: a connection idle while they are built may be closed by the service just as an upload reuses it.
    const files = await hostileFiles();
    const assistant = await fixture.admin.createAssistant("hostile uploads");
    for (const file of files) {
      const form = new FormData();
      form.append("files", new Blob([new Uint8Array(file.bytes)]), file.name);
      await expectWellBehaved(`/admin/v1/assistants/${assistant.id}/documents`, {
        method: "POST",
        headers: { Authorization: `Bearer ${adminToken}` },
        body: form,
      });
      count(tally.checked, `uploaded: ${file.kind}`);
    }
    for (const name of oddFileNames) {
      const answer = await sendRaw(
        fixture.url,
        multipartRequest(assistant.id, name, "# Notes\n\nThe backup rotation runs weekly.\n"),
        budget.requestTimeoutMs,
        false,
      );
      expect(answer.hung, name).toBe(false);
      expect(answer.status, name).not.toBeNull();
      count(tally.requests, statusClass(answer.status ?? 0));
      expect(
        violations({ status: answer.status ?? 0, headers: answer.headers, body: answer.body }),
        name,
      ).toEqual([]);
    }
    // Every document settles: ready when it is readable, failed with a reason when it is not.
    const deadline = Date.now() + 120_000;
    let documents = await fixture.admin.listDocuments(assistant.id);
    while (documents.some((document) => document.status === "queued" || document.status === "processing")) {
      expect(Date.now(), JSON.stringify(documents.map((d) => [d.file_name, d.status]))).toBeLessThan(
        deadline,
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      documents = await fixture.admin.listDocuments(assistant.id);
    }
    for (const file of files) {
      const document = documents.find((candidate) => candidate.file_name === file.name);
      expect(document, file.name).toBeDefined();
      if (file.readable) expect(document?.status, `${file.kind}: ${document?.error}`).toBe("ready");
      else if (document?.status === "failed") expect(document.error, file.kind).toBeTruthy();
      if (file.reason) expect(document?.error, file.kind).toContain(file.reason);
      count(tally.checked, "hostile documents settled");
    }
    // A page served from a script-carrying PDF carries none of its scripts to the reader's viewer.
    const scripted = documents.find((document) => document.file_name === "scripts.pdf")!;
    const scriptedKey = (await fixture.createKey(["ask"], assistant.id)).key;
    for (const attempt of ["first request", "cached"]) {
      const token = fixture.mintPdfToken({ assistant: assistant.id, document: scripted.id, pages: [1] });
      const slice = await fetch(`${fixture.url}${publicPaths.pdfPage(token, 1)}`, {
        headers: {
          Authorization: `Bearer ${scriptedKey}`,
          "X-App-Code": "selfserve",
          "X-External-User-Id": testUser,
        },
      });
      expect(slice.status, attempt).toBe(200);
      const slicePath = join(temporaryDirectory("cka-slice-"), "slice.pdf");
      writeFileSync(slicePath, Buffer.from(await slice.arrayBuffer()));
      const expanded = execFileSync("qpdf", ["--qdf", "--object-streams=disable", slicePath, "-"]).toString(
        "latin1",
      );
      expect(expanded, attempt).not.toMatch(/\/JavaScript|\/JS\b|\/OpenAction/);
      count(tally.checked, "slices of a script-carrying PDF without scripts");
    }
    for (const name of documents.map((document) => document.file_name)) {
      expect(
        [...name].filter((character) => character < " "),
        name,
      ).toEqual([]);
    }
    await expectCanary();
  }, 300_000);
});

describe("bytes the HTTP parser rejects before the app sees them", () => {
  it("answers problem details with a request id, or closes; never hangs; keeps serving", async () => {
    const host = "Host: 127.0.0.1\r\n";
    const request = fc.oneof(
      hostileString.map((text) => `GET /${text} HTTP/1.1\r\n${host}\r\n`),
      hostileString.map((text) => `${text} / HTTP/1.1\r\n${host}\r\n`),
      hostileString.map((text) => `GET / HTTP/1.1\r\n${host}X-Bad: ${text}\r\n\r\n`),
      hostileString.map((text) => `GET / HTTP/1.1\r\n${host}${text}: x\r\n\r\n`),
      fc.constantFrom(
        `GET / HTTP/1.1\r\n${host}X-Big: ${"a".repeat(70_000)}\r\n\r\n`,
        `POST /external/v1/assistants/x/rag HTTP/1.1\r\n${host}Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
        `POST /external/v1/assistants/x/rag HTTP/1.1\r\n${host}Transfer-Encoding: chunked\r\n\r\nZZ\r\nhello\r\n0\r\n\r\n`,
        `POST /external/v1/assistants/x/rag HTTP/1.1\r\n${host}Content-Length: -1\r\n\r\n`,
        `POST /external/v1/assistants/x/rag HTTP/1.1\r\n${host}Content-Length: 1\r\nContent-Length: 2\r\n\r\nab`,
        `GET / HTTP/9.9\r\n${host}\r\n`,
        "\r\n\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
        `GET / HTTP/1.1\r\n${host} folded: header\r\n\r\n`,
      ),
    );
    await fc.assert(
      fc.asyncProperty(request, async (text) => {
        const answer = await sendRaw(fixture.url, Buffer.from(text, "utf8"), budget.requestTimeoutMs);
        count(
          tally.requests,
          answer.hung
            ? "hang"
            : answer.status === null
              ? "closed without answer"
              : statusClass(answer.status),
        );
        expect(answer.hung, JSON.stringify(text.slice(0, 200))).toBe(false);
        if (answer.status !== null) {
          expect(
            violations({ status: answer.status, headers: answer.headers, body: answer.body }),
            JSON.stringify(text.slice(0, 200)),
          ).toEqual([]);
        }
      }),
      runs,
    );
    await expectCanary();
  });
});

describe("hostile input to the host handler (SDK, SQL store on PGlite)", () => {
  const origin = "http://app.test";
  let pglite: PGlite;
  let handler: ServiceHandler;
  /** Errors the handler met that it did not expect: none may come of any input. */
  const reported: string[] = [];

  beforeAll(async () => {
    pglite = new PGlite(inMemoryPgliteOptions());
    const store = createSqlServiceStore({ client: pglite });
    await store.migrate();
    handler = createServiceHandler({
      baseUrl: fixture.url,
      assistantId: fixture.assistant.id,
      apiKey: key,
      allowedOrigin: origin,
      store,
      authenticate: async (request) => {
        const user = request.headers.get("X-Test-User");
        return user ? { id: user, externalUserId: user } : null;
      },
      onError: (error) => {
        reported.push(String(error));
      },
    });
  });

  afterAll(async () => {
    await pglite?.close();
  });

  async function callHandler(
    method: string,
    path: string,
    body?: string,
    headers: Record<string, string> = {},
  ) {
    const response = await handler(
      new Request(`${origin}/api/cited${path}`, {
        method,
        headers: {
          "X-Test-User": "host-user",
          Origin: origin,
          "Content-Type": "application/json",
          ...headers,
        },
        ...(body === undefined ? {} : { body }),
      }),
    );
    const answer = { status: response.status, headers: response.headers, body: await response.text() };
    count(tally.requests, statusClass(answer.status));
    return answer;
  }

  it("titles, messages, conversation ids, page numbers, origins and bodies of any shape", async () => {
    const created = await callHandler("POST", "/conversations", JSON.stringify({ title: "hostile" }));
    const conversation = (JSON.parse(created.body) as { id: string }).id;
    const request = fc.oneof(
      withHostileField({ title: "A title" }).map(
        (body) => ["POST", "/conversations", JSON.stringify(body)] as const,
      ),
      withHostileField({ title: "A title" }).map(
        (body) => ["PATCH", `/conversations/${conversation}`, JSON.stringify(body)] as const,
      ),
      withHostileField({ message: "How do I plot a function?" }).map(
        (body) => ["POST", `/conversations/${conversation}/ask`, JSON.stringify(body)] as const,
      ),
      withHostileField({ query: "plot", max_results: 3 }).map(
        (body) => ["POST", "/rag", JSON.stringify(body)] as const,
      ),
      hostileSegment.map((id) => ["GET", `/conversations/${id}/messages`, undefined] as const),
      hostileSegment.map((id) => ["DELETE", `/conversations/${id}`, undefined] as const),
      fc
        .tuple(hostileSegment, hostileSegment, hostileSegment)
        .map(
          ([message, reference, page]) =>
            ["GET", `/pdf/${message}/${reference}?page=${page}`, undefined] as const,
        ),
      anyJson.map((body) => ["POST", `/conversations/${conversation}/ask`, JSON.stringify(body)] as const),
      fc
        .constantFrom(deeplyNested(100_000), "{", "\u0000")
        .map((body) => ["POST", "/conversations", body] as const),
    );
    const latin1 = hostileString.map((text) => text.replace(/[^\u0020-\u007e\u0080-\u00ff]/g, "?"));
    await fc.assert(
      fc.asyncProperty(
        request,
        fc.option(latin1, { freq: 4 }),
        async ([method, path, body], originHeader) => {
          const answer = await callHandler(
            method,
            path,
            body,
            originHeader === null ? {} : { Origin: originHeader },
          );
          expect(violations(answer), `${method} ${path.slice(0, 200)}`).toEqual([]);
        },
      ),
      { ...runs, numRuns: Math.ceil(budget.propertyRuns / 2) },
    );
    expect(reported).toEqual([]);
    await expectCanary();
  }, 300_000);
});

describe("after all of it", () => {
  it("the service logged no stack trace", () => {
    expect(fixture.service.logs()).not.toMatch(/"stack"|\n\s+at /);
  });
});

function encodeSegment(text: string): string {
  return encodeURIComponent(text.replace(/[\uD800-\uDFFF]/g, "\uFFFD"));
}

function multipartRequest(assistantId: string, fileName: string, content: string): Buffer {
  const boundary = `----cited${randomUUID()}`;
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${fileName}"\r\nContent-Type: text/markdown\r\n\r\n`,
      "utf8",
    ),
    Buffer.from(content, "utf8"),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const head = [
    `POST /admin/v1/assistants/${assistantId}/documents HTTP/1.1`,
    "Host: 127.0.0.1",
    `Authorization: Bearer ${adminToken}`,
    `Content-Type: multipart/form-data; boundary=${boundary}`,
    `Content-Length: ${body.length}`,
    "Connection: close",
    "",
    "",
  ].join("\r\n");
  return Buffer.concat([Buffer.from(head), body]);
}
