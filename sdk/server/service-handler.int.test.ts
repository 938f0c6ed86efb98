/** The handler and the client against a real service process, with a real ingested PDF. */
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminClientFor, resolveConnection, uploadFile } from "../../service/cli/admin-client.ts";
import { type SpawnedService, spawnService } from "../../service/testing/spawn-service.ts";
import type { AdminClient } from "../admin/index.ts";
import { type AnswerState, AuthenticationError, UnprocessableEntityError } from "../core/index.ts";
import type { PdfHighlightReference, ServiceUpdate } from "../core/wire.ts";
import { createServiceHandler, type ServiceHandler } from "./create-service-handler.ts";
import { createMemoryServiceStore } from "./memory-service-store.ts";
import { createServiceClient } from "./service-client.ts";
import type { ServiceStore } from "./service-store.ts";

const origin = "http://app.test";
/** The demo corpus's manual, five pages of the Debian Developer's Reference. */
const samplePdf = join(import.meta.dirname, "../../samples/sources/debian-uploads-and-bugs.pdf");
const question = "Which dput option puts an upload into the delayed queue?";
/** Tokens live 1–2 s (the service rounds expiry down to the second), so a test can outwait one. */
const tokenTtlSeconds = 2;

let service: SpawnedService;
let admin: AdminClient;
let assistantId: string;
let apiKey: string;
let store: ServiceStore;
let handler: ServiceHandler;
/** Every call the handler made to the service, as `METHOD path`. */
const serviceCalls: string[] = [];

beforeAll(async () => {
  service = await spawnService({ env: { CKA_TOKEN_TTL_SECONDS: String(tokenTtlSeconds) } });
  admin = adminClientFor(resolveConnection({ url: service.url, data: service.dataDir }));
  assistantId = (await admin.createAssistant("uploads")).id;
  await uploadFile(admin, assistantId, samplePdf);
  apiKey = (await admin.createKey(assistantId, ["ask", "rag"])).key;
  await waitUntilReady(admin, assistantId);
  store = createMemoryServiceStore();
  handler = createServiceHandler({
    baseUrl: service.url,
    assistantId,
    apiKey,
    allowedOrigin: origin,
    store,
    authenticate: async (request) => {
      const user = request.headers.get("X-Test-User");
      return user ? { id: user, externalUserId: `ext-${user}` } : null;
    },
    fetch: async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : input);
      serviceCalls.push(`${init?.method ?? "GET"} ${url.pathname}`);
      return fetch(input, init);
    },
  });
});

afterAll(async () => {
  await service?.stop();
});

async function waitUntilReady(client: AdminClient, assistant: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const [document] = await client.listDocuments(assistant);
    if (document?.status === "ready") return;
    if (document?.status === "failed") throw new Error(`ingestion failed: ${document.error}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  throw new Error(`the document was not ready in 60 s:\n${service.logs()}`);
}

function call(method: string, path: string, user: string, body?: unknown): Promise<Response> {
  return handler(
    new Request(`${origin}/api/cited${path}`, {
      method,
      headers: { "X-Test-User": user, Origin: origin, "Content-Type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );
}

/** Asks in a new conversation of `user`; returns the updates and the PDF reference of the answer. */
async function askAsUser(user: string) {
  const { id } = (await (await call("POST", "/conversations", user, {})).json()) as { id: string };
  const response = await call("POST", `/conversations/${id}/ask`, user, { message: question });
  expect(response.status).toBe(200);
  const updates = (await response.text())
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as ServiceUpdate);
  const last = updates.at(-1);
  if (last?.type !== "saved") throw new Error(`the stream did not end with saved: ${JSON.stringify(last)}`);
  const answer = (updates.at(-2) as { answer: AnswerState }).answer;
  const reference = Object.values(answer.references).find(
    (candidate): candidate is PdfHighlightReference => candidate.kind === "pdf_highlight",
  );
  if (!reference) throw new Error("the answer cited no PDF passage");
  return { conversationId: id, updates, answer, messageId: last.messageId, reference };
}

describe("createServiceHandler against the real service", () => {
  it("serves the page of a PDF passage that rag found for the user, and to no other user", async () => {
    const found = (await (
      await call("POST", "/rag", "alice", { query: "delayed upload", max_results: 1 })
    ).json()) as {
      results: Array<{ metadata: { page_index?: number; pdf?: { token: string } } }>;
    };
    const [first] = found.results;
    const token = first?.metadata.pdf?.token ?? "";
    const page = first?.metadata.page_index ?? -1;
    expect(token).not.toBe("");
    const served = await call("GET", `/passage-pdf/${encodeURIComponent(token)}?page=${page}`, "alice");
    expect(served.status).toBe(200);
    expect(served.headers.get("Content-Type")).toBe("application/pdf");
    expect(new TextDecoder().decode((await served.arrayBuffer()).slice(0, 5))).toBe("%PDF-");
    const refused = await call("GET", `/passage-pdf/${encodeURIComponent(token)}?page=${page}`, "bob");
    expect(refused.status).toBe(403);
    const withoutPage = await call("GET", `/passage-pdf/${encodeURIComponent(token)}`, "alice");
    expect(withoutPage.status).toBe(422);
  });

  it("streams a full answer to the browser and saves it with the question", async () => {
    const { conversationId, updates, answer, messageId } = await askAsUser("alice");

    expect(updates.filter((update) => update.type === "answer").length).toBeGreaterThan(1);
    expect(answer).toMatchObject({ phase: "done", refusal: false, messageId });
    expect(answer.text).toMatch(/--delayed/);
    const listed = (await (
      await call("GET", `/conversations/${conversationId}/messages`, "alice")
    ).json()) as {
      messages: Array<{ role: string; text: string; partial: boolean; answer: AnswerState | null }>;
    };
    expect(listed.messages.map((message) => [message.role, message.partial])).toEqual([
      ["user", false],
      ["assistant", false],
    ]);
    expect(listed.messages[0]?.text).toBe(question);
    expect(listed.messages[1]?.answer).toEqual(answer);
  });

  it("serves a reference's PDF to its owner, and refuses another user without calling the service", async () => {
    const { messageId, reference } = await askAsUser("alice");
    const before = serviceCalls.length;

    const refused = await call("GET", `/pdf/${messageId}/${reference.id}`, "mallory");
    expect(refused.status).toBe(403);
    expect(serviceCalls.length).toBe(before);

    const served = await call("GET", `/pdf/${messageId}/${reference.id}`, "alice");
    expect(served.status).toBe(200);
    expect(served.headers.get("Content-Type")).toBe("application/pdf");
    const start = Number(served.headers.get("X-Pdf-Slice-Start"));
    const count = Number(served.headers.get("X-Pdf-Page-Count"));
    expect(start).toBeLessThanOrEqual(reference.page_index);
    expect(start + count).toBeGreaterThan(reference.page_index);
    expect(new TextDecoder().decode((await served.arrayBuffer()).slice(0, 5))).toBe("%PDF-");
  });

  it("renews an expired PDF token once and still serves the page", async () => {
    const { messageId, reference } = await askAsUser("alice");
    await new Promise((resolve) =>
      setTimeout(resolve, Date.parse(reference.pdf.expires_at) - Date.now() + 100),
    );
    const before = serviceCalls.length;

    const served = await call("GET", `/pdf/${messageId}/${reference.id}`, "alice");

    expect(served.status).toBe(200);
    const calls = serviceCalls
      .slice(before)
      .map((entry) =>
        entry.replace(/^GET \/chat\/reference\/pdf\/[^/]+$/, "GET /chat/reference/pdf/{token}"),
      );
    expect(calls).toEqual([
      "GET /chat/reference/pdf/{token}",
      "POST /chat/reference/pdf/refresh",
      "GET /chat/reference/pdf/{token}",
    ]);
    const stored = await store.findReference("alice", messageId, reference.id);
    expect(stored?.refreshes).toBe(1);
    expect(stored?.pdf?.token).not.toBe(reference.pdf.token);
  });
});

describe("ServiceClient against the real service", () => {
  it("lists the assistant's sources: the PDF it answers from, with its pages", async () => {
    const client = createServiceClient({ baseUrl: service.url, assistantId, apiKey });
    const { sources, total } = await client.sources();
    expect(total).toBe(1);
    expect(sources).toEqual([
      expect.objectContaining({
        file_name: "debian-uploads-and-bugs.pdf",
        pages: 5,
        title: expect.any(String),
      }),
    ]);
  });

  it("surfaces a revoked key as AuthenticationError with the request id, and the handler as a 502", async () => {
    const created = await admin.createKey(assistantId, ["ask", "rag"]);
    await admin.revokeKey(created.id);
    const revoked = createServiceClient({ baseUrl: service.url, assistantId, apiKey: created.key });

    const error = await revoked.rag({ query: "delayed upload" }).catch((caught: unknown) => caught);

    expect(AuthenticationError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      status: 401,
      code: "invalid_key",
      requestId: expect.stringMatching(/^req_/),
    });

    const revokedHandler = createServiceHandler({
      baseUrl: service.url,
      assistantId,
      apiKey: created.key,
      allowedOrigin: origin,
      store,
      authenticate: async () => ({ id: "alice", externalUserId: "ext-alice" }),
      onError: () => {},
    });
    const response = await revokedHandler(
      new Request(`${origin}/api/cited/rag`, {
        method: "POST",
        headers: { Origin: origin, "Content-Type": "application/json" },
        body: JSON.stringify({ query: "delayed upload" }),
      }),
    );
    expect(response.status).toBe(502);
    expect(await response.text()).not.toContain(created.key);
  });

  describe("behind a proxy that answers 503 to the first requests", () => {
    let proxy: Server;
    let proxyUrl: string;
    let failuresLeft = 0;
    let proxied = 0;

    beforeAll(async () => {
      proxy = createServer((incoming, outgoing) => {
        proxied += 1;
        if (failuresLeft > 0) {
          failuresLeft -= 1;
          outgoing.writeHead(503, {
            "Content-Type": "application/problem+json",
            "X-Request-ID": "req_proxy",
          });
          outgoing.end(
            JSON.stringify({
              type: "about:blank",
              title: "Service unavailable",
              status: 503,
              code: "unavailable",
              detail: "warming up",
              request_id: "req_proxy",
            }),
          );
          return;
        }
        const forward = httpRequest(
          new URL(incoming.url ?? "/", service.url),
          { method: incoming.method, headers: incoming.headers },
          (answer) => {
            outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(outgoing);
          },
        );
        forward.on("error", (error) => outgoing.destroy(error));
        incoming.pipe(forward);
      });
      await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
      proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    });

    afterAll(async () => {
      await new Promise((resolve) => proxy.close(resolve));
    });

    const proxiedClient = () =>
      createServiceClient({
        baseUrl: proxyUrl,
        assistantId,
        apiKey,
        maxRetries: 2,
        backoff: { initialMs: 20 },
      });

    it("retries rag and ask until the service answers", async () => {
      failuresLeft = 2;
      proxied = 0;
      const rag = await proxiedClient().rag({ query: "delayed upload", max_results: 3 });
      expect(rag.results.length).toBeGreaterThan(0);
      expect(proxied).toBe(3);

      failuresLeft = 2;
      proxied = 0;
      const answers: AnswerState[] = [];
      for await (const answer of proxiedClient().askAnswers(crypto.randomUUID(), {
        id_user: "u1",
        message: question,
      })) {
        answers.push(answer);
      }
      expect(answers.at(-1)?.phase).toBe("done");
      expect(proxied).toBe(3);
    });

    it("does not retry a 422", async () => {
      failuresLeft = 0;
      proxied = 0;

      const error = await proxiedClient()
        .rag({ query: "" })
        .catch((caught: unknown) => caught);

      expect(UnprocessableEntityError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ status: 422, code: "invalid_input" });
      expect(proxied).toBe(1);
    });
  });
});
