/** Hostile input against a real service process: text the database cannot store, malformed multipart bodies, non-ASCII file names. */

import { randomUUID } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AdminClient, createAdminClient } from "../../sdk/admin/index.ts";
import { publicPaths } from "../../sdk/core/service-paths.ts";
import { uploadFile } from "../cli/admin-client.ts";
import { callPublic, expectProblem } from "../testing/public-api-client.ts";
import { testAdminToken, uploadFiles } from "../testing/sharing-area.ts";
import { type SpawnedService, spawnService } from "../testing/spawn-service.ts";

let service: SpawnedService;
let client: AdminClient;
let assistantId: string;
let key: string;

beforeAll(async () => {
  service = await spawnService({ env: { CKA_ADMIN_TOKEN: testAdminToken, CKA_OCR: "off" } });
  client = createAdminClient({ baseUrl: service.url, adminToken: testAdminToken });
  assistantId = (await client.createAssistant("Hostile input")).id;
  key = (await client.createKey(assistantId, ["ask", "rag"])).key;
});
afterAll(async () => {
  await service?.stop("SIGKILL");
  if (service) await rm(service.dataDir, { recursive: true, force: true });
});

const admin = (method: string, path: string, body?: string) =>
  fetch(`${service.url}/admin/v1${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${testAdminToken}`,
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    ...(body === undefined ? {} : { body }),
  });

/** JSON text whose string holds `\u0000` or a lone surrogate as an escape, as a hostile client would write it. */
const unstorable = [
  { name: "a NUL character", escaped: "before\\u0000after" },
  { name: "a lone high surrogate", escaped: "before\\ud800after" },
  { name: "a lone low surrogate", escaped: "before\\udc00after" },
];

describe("text the database cannot store", () => {
  it.each(unstorable)(
    "ask refuses $name in id_user with 422 before any stream starts",
    async ({ escaped }) => {
      const response = await callPublic(service.url, {
        path: publicPaths.ask(assistantId, randomUUID()),
        key,
        body: `{"id_user":"${escaped}","message":"What is this about?"}`,
      });
      const problem = await expectProblem(response, 422, "invalid_input");
      expect(problem.errors).toEqual([expect.objectContaining({ path: "id_user" })]);
    },
  );

  it.each(unstorable)(
    "ask refuses $name in message with 422 before any stream starts",
    async ({ escaped }) => {
      const response = await callPublic(service.url, {
        path: publicPaths.ask(assistantId, randomUUID()),
        key,
        body: `{"id_user":"user-1","message":"${escaped}"}`,
      });
      const problem = await expectProblem(response, 422, "invalid_input");
      expect(problem.errors).toEqual([expect.objectContaining({ path: "message" })]);
    },
  );

  it("rag refuses a NUL in a datasource id with 422", async () => {
    const response = await callPublic(service.url, {
      path: publicPaths.rag(assistantId),
      key,
      body: '{"query":"anything","datasource_ids":["ds\\u0000"]}',
    });
    const problem = await expectProblem(response, 422, "invalid_input");
    expect(problem.errors).toEqual([expect.objectContaining({ path: "datasource_ids.0" })]);
  });

  it.each(unstorable)("assistant and key names with $name are refused with 422", async ({ escaped }) => {
    await expectProblem(await admin("POST", "/assistants", `{"name":"${escaped}"}`), 422, "invalid_input");
    await expectProblem(
      await admin("PATCH", `/assistants/${assistantId}`, `{"name":"${escaped}"}`),
      422,
      "invalid_input",
    );
    await expectProblem(
      await admin("POST", `/assistants/${assistantId}/keys`, `{"scopes":["rag"],"name":"${escaped}"}`),
      422,
      "invalid_input",
    );
    expect((await client.listAssistants()).map((assistant) => assistant.name)).toEqual(["Hostile input"]);
  });

  it("an upload whose datasource field holds a NUL is refused with 422 and adds nothing", async () => {
    const response = await uploadFiles(
      service.url,
      assistantId,
      [{ name: "notes.md", bytes: new TextEncoder().encode("# Notes\n\nSome text.\n") }],
      { datasource: "manuals\u0000" },
    );
    const problem = await expectProblem(response, 422, "invalid_input");
    expect(problem.errors).toEqual([expect.objectContaining({ path: "datasource" })]);
    expect(await client.listDocuments(assistantId)).toEqual([]);
  });

  it.each([
    ["GET", "/assistants/%00/documents"],
    ["PATCH", "/assistants/asst_%00"],
    ["DELETE", "/assistants/%00"],
    ["GET", "/assistants/%00/keys"],
    ["DELETE", "/keys/key_%00"],
    ["GET", "/assistants/%ED%A0%80/share"],
  ])("%s /admin/v1%s answers 404 for an id that cannot exist", async (method, path) => {
    await expectProblem(
      await admin(method, path, method === "PATCH" ? '{"name":"x"}' : undefined),
      404,
      "not_found",
    );
  });

  it("the public API answers 404 for an assistant id holding a NUL", async () => {
    const response = await callPublic(service.url, {
      path: publicPaths.rag("asst_%00"),
      key,
      body: { query: "anything" },
    });
    await expectProblem(response, 404, "not_found");
  });
});

describe("multipart bodies", () => {
  it("multipart/form-data without a boundary is refused with 400", async () => {
    const response = await fetch(`${service.url}/admin/v1/assistants/${assistantId}/documents`, {
      method: "POST",
      headers: { Authorization: `Bearer ${testAdminToken}`, "Content-Type": "multipart/form-data" },
      body: '--x\r\nContent-Disposition: form-data; name="files"; filename="a.md"\r\n\r\nhello\r\n--x--\r\n',
    });
    await expectProblem(response, 400, "invalid_request");
  });
});

describe("non-ASCII file names", () => {
  const name = "Überblick – 日本語.md";
  const text = "# Überblick\n\nEin kurzer Text.\n";

  it("keeps a name as a browser sends it (UTF-8 bytes in filename=)", async () => {
    const assistant = (await client.createAssistant("Browser names")).id;
    const response = await uploadFiles(service.url, assistant, [
      { name, bytes: new TextEncoder().encode(text) },
    ]);
    expect(response.status, await response.clone().text()).toBe(202);
    expect((await client.listDocuments(assistant)).map((document) => document.file_name)).toEqual([name]);
  });

  it("keeps a name as cka sends it", async () => {
    const assistant = (await client.createAssistant("Cli names")).id;
    const folder = await mkdtemp(join(tmpdir(), "cka-names-"));
    try {
      await writeFile(join(folder, name), text);
      const [document] = await uploadFile(client, assistant, join(folder, name));
      expect(document?.file_name).toBe(name);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});

/** Writes raw bytes on a fresh connection and returns all the service wrote back before closing it. */
function rawExchange(bytes: string | Buffer): Promise<string> {
  const { hostname, port } = new URL(service.url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => socket.write(bytes));
    let answer = "";
    socket.setEncoding("utf8");
    socket.setTimeout(10_000, () => socket.destroy(new Error(`no answer in 10 s; so far: ${answer}`)));
    socket.on("data", (text: string) => {
      answer += text;
    });
    socket.on("error", reject);
    socket.on("close", () => resolve(answer));
  });
}

describe("requests the HTTP parser refuses before the app sees them", () => {
  it.each([
    { name: "a malformed request line", bytes: "HELLO THERE\r\n\r\n", status: 400 },
    {
      name: "a control byte in a header",
      bytes: "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0001b\r\n\r\n",
      status: 400,
    },
    {
      name: "a header block over the size limit",
      bytes: `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`,
      status: 431,
    },
    {
      name: "a backslash in the path, which no URL may hold",
      bytes: "GET /a\\b HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
      status: 400,
    },
    {
      name: "a Host header that is not a host",
      bytes: "GET /healthz HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n",
      status: 400,
    },
    {
      name: "a malformed chunked body",
      bytes:
        "POST /admin/v1/assistants HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
      status: 400,
    },
  ])(
    "$name answers $status problem details with a request id, and the service keeps serving",
    async ({ bytes, status }) => {
      const answer = await rawExchange(bytes);
      const [head = "", body = ""] = answer.split("\r\n\r\n");
      expect(head, answer).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
      expect(head).toMatch(/^content-type: application\/problem\+json/im);
      const requestId = /^x-request-id: (\S+)$/im.exec(head)?.[1];
      expect(requestId).toMatch(/^req_/);
      expect(body).not.toMatch(/\n\s+at |node:internal|\.ts:\d+/);
      expect(JSON.parse(body)).toMatchObject({ status, request_id: requestId });
      expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
    },
  );
});
