/** The handler called directly with Requests, in front of a fake service that replays recorded streams. */
import { PGlite } from "@electric-sql/pglite";
import { describe, expect, it } from "vitest";
import { inMemoryPgliteOptions } from "../../service/testing/pglite-template.ts";
import { HttpProblem } from "../core/index.ts";
import { type AuthenticatedUser, createServiceHandler } from "./create-service-handler.ts";
import { createMemoryServiceStore } from "./memory-service-store.ts";
import { createSqlServiceStore } from "./sql-service-store.ts";
import { ndjsonBody, ndjsonResponse, problemResponse } from "./testing/fake-fetch.ts";
import {
  conversationOf,
  ndjsonLines,
  origin,
  pdfReferenceId,
  problemOf,
  recorded,
  recordedLines,
  recordedService,
  setup,
} from "./testing/handler-harness.ts";

/** The service settings every handler here shares; the service itself is never reached by these tests. */
const serviceConfig = {
  baseUrl: "http://service.test",
  assistantId: "asst_Test0001",
  apiKey: "sk_live_secret_key",
  allowedOrigin: origin,
};

describe("createServiceHandler: its configuration", () => {
  const environment: Record<string, string | undefined> = {};
  const fromEnvironment = () => ({
    baseUrl: environment.CITED_BASE_URL!,
    assistantId: environment.CITED_ASSISTANT_ID!,
    apiKey: environment.CITED_API_KEY!,
    allowedOrigin: environment.CITED_APP_ORIGIN!,
    authenticate: async () => ({ id: "alice", externalUserId: "alice" }),
    store: createMemoryServiceStore(),
  });

  it("is read at the first request, so a module that creates it builds without the environment", () => {
    expect(() => createServiceHandler(fromEnvironment())).not.toThrow();
  });

  it("answers 500 and logs, naming every missing setting, when the first request comes without them", async () => {
    const logged: unknown[] = [];
    const handler = createServiceHandler({ ...fromEnvironment(), onError: (error) => logged.push(error) });

    const response = await handler(new Request(`${origin}/api/cited/conversations`));

    expect(response.status).toBe(500);
    expect(JSON.stringify(await response.json())).not.toContain("baseUrl");
    expect(logged).toHaveLength(1);
    expect(String(logged[0])).toBe(
      "Error: createServiceHandler is missing settings: baseUrl (the service's URL), assistantId, apiKey, allowedOrigin (the app's origin, as the browser shows it).",
    );
  });

  it("refuses a setting of the wrong form, saying what it should be", async () => {
    const logged: unknown[] = [];
    const handler = createServiceHandler({
      ...serviceConfig,
      baseUrl: "localhost:8787",
      allowedOrigin: "http://localhost:3000/chat",
      authenticate: async () => null,
      store: createMemoryServiceStore(),
      onError: (error) => logged.push(error),
    });

    expect((await handler(new Request(`${origin}/api/cited/conversations`))).status).toBe(500);
    expect(String(logged[0])).toBe(
      "Error: createServiceHandler has settings it cannot use: baseUrl must be an http(s) URL such as http://127.0.0.1:8787; allowedOrigin must be an origin such as https://app.example (scheme, host and port, no path).",
    );
  });
});

describe("createServiceHandler: guards", () => {
  it("answers 401 when authenticate returns null, before reading the body or calling the service", async () => {
    const { call, serviceRequests } = setup();

    const response = await call("POST", "/rag", { body: '{"query":"q"}', user: null });

    expect(response.status).toBe(401);
    expect((await problemOf(response)).code).toBe("unauthenticated");
    expect(serviceRequests).toHaveLength(0);
  });

  it("refuses a POST from another origin or without one (403), and lets GETs through", async () => {
    const { call } = setup();

    expect(
      (await call("POST", "/conversations", { body: "{}", origin: "https://evil.example" })).status,
    ).toBe(403);
    expect((await call("POST", "/conversations", { body: "{}", origin: null })).status).toBe(403);
    expect((await call("GET", "/conversations")).status).toBe(200);
    expect((await call("POST", "/conversations", { body: "{}" })).status).toBe(201);
  });

  it.each([
    ["another origin", "https://evil.example"],
    ["no origin", null],
  ])("refuses a rename or a delete from %s (403), and the conversation stays as it was", async (_, from) => {
    const { call, store } = setup();
    const conversation = await store.createConversation("alice", "Mine");
    const path = `/conversations/${conversation.id}`;

    expect((await call("PATCH", path, { body: '{"title":"Forged"}', origin: from })).status).toBe(403);
    expect((await call("DELETE", path, { origin: from })).status).toBe(403);
    expect(await store.getConversation("alice", conversation.id)).toEqual(conversation);
  });

  it("answers 413 for a body over the limit, whatever Content-Length says", async () => {
    const { call, serviceRequests } = setup(recordedService, { maxBodyBytes: 1024 });
    const response = await call("POST", `/conversations/${crypto.randomUUID()}/ask`, {
      body: JSON.stringify({ message: "x".repeat(2000) }),
    });

    expect(response.status).toBe(413);
    expect((await problemOf(response)).code).toBe("payload_too_large");
    expect(serviceRequests).toHaveLength(0);
  });

  it.each([
    ["an empty message", { message: "" }, "message"],
    ["a message of 5,001 characters", { message: "a".repeat(5001) }, "message"],
    ["no message", { detail_level: "DETAILED" }, "message"],
    ["an unknown detail level", { message: "What is R?", detail_level: "VERBOSE" }, "detail_level"],
    [
      "an unknown technicality level",
      { message: "What is R?", technicality_level: "EXPERT" },
      "technicality_level",
    ],
  ])("answers 422 for an ask with %s, naming the field", async (_, body, field) => {
    const { call, store, serviceRequests } = setup();
    const id = await conversationOf(store);

    const response = await call("POST", `/conversations/${id}/ask`, { body: JSON.stringify(body) });

    expect(response.status).toBe(422);
    expect((await problemOf(response)).errors?.map((error) => error.path)).toContain(field);
    expect(serviceRequests).toHaveLength(0);
    expect(await store.listMessages("alice", id)).toEqual([]);
  });

  it("answers 400 invalid_request for a body that is not JSON or is broken JSON, as the service does", async () => {
    const { call } = setup();
    const notJson = await call("POST", "/rag", {
      body: "query=q",
      headers: { "Content-Type": "text/plain" },
    });
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as { code: string }).code).toBe("invalid_request");
    expect((await call("POST", "/rag", { body: "{" })).status).toBe(400);
  });

  it("answers 404 for unknown routes and other users' conversations, 405 for a wrong method", async () => {
    const { call, store } = setup();
    const bobs = await conversationOf(store, "bob");

    expect((await call("GET", "/nowhere")).status).toBe(404);
    expect((await call("GET", `/conversations/${bobs}/messages`)).status).toBe(404);
    expect((await call("POST", `/conversations/${bobs}/ask`, { body: '{"message":"hi"}' })).status).toBe(404);
    const wrongMethod = await call("GET", "/rag");
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("Allow")).toBe("POST");
  });

  it("answers 404 to ids with control characters and 422 to text PostgreSQL cannot store, before a SQL store sees them", async () => {
    const pglite = new PGlite(inMemoryPgliteOptions());
    const store = createSqlServiceStore({ client: pglite });
    await store.migrate();
    const { call, errors } = setup(recordedService, { store });
    const mine = await conversationOf(store, "alice");
    try {
      for (const id of ["%00", "a%00b", "%0A", "%1B%5B31m"]) {
        for (const [method, path, body] of [
          ["GET", `/conversations/${id}`],
          ["GET", `/conversations/${id}/messages`],
          ["PATCH", `/conversations/${id}`, '{"title":"t"}'],
          ["DELETE", `/conversations/${id}`],
          ["POST", `/conversations/${id}/ask`, '{"message":"hi"}'],
          ["GET", `/pdf/${id}/ref_x?page=1`],
          ["GET", `/pdf/msg_x/${id}`],
        ] as const) {
          const response = await call(method, path, { user: "alice", ...(body ? { body } : {}) });
          expect(response.status, `${method} ${path}`).toBe(404);
        }
      }
      for (const text of ["a\u0000b", "\ud800", "lone \udc00 low"]) {
        const body = (field: string) => JSON.stringify({ [field]: text });
        for (const [method, path, field] of [
          ["POST", "/conversations", "title"],
          ["PATCH", `/conversations/${mine}`, "title"],
          ["POST", `/conversations/${mine}/ask`, "message"],
          ["POST", "/rag", "query"],
        ] as const) {
          const response = await call(method, path, { user: "alice", body: body(field) });
          expect(response.status, `${method} ${path} ${JSON.stringify(text)}`).toBe(422);
          expect((await problemOf(response)).errors).toEqual([{ path: field, message: expect.any(String) }]);
        }
      }
      expect(errors).toEqual([]);
      expect(await store.getConversation("alice", mine)).not.toBeNull();
      expect(await store.listMessages("alice", mine)).toEqual([]);
    } finally {
      await pglite.close();
    }
    // Starting the WASM database is slow on a busy machine.
  }, 120_000);

  it("answers a generic 500 with a request id when the store fails, and reports the error", async () => {
    const errors: unknown[] = [];
    const failing = createServiceHandler({
      ...serviceConfig,
      store: { ...createMemoryServiceStore(), listConversations: () => Promise.reject(new Error("db down")) },
      authenticate: async () => ({ id: "alice", externalUserId: "ext-alice" }),
      onError: (error) => errors.push(error),
    });

    const response = await failing.GET(new Request(`${origin}/api/cited/conversations`));

    expect(response.status).toBe(500);
    expect((await problemOf(response)).detail).not.toContain("db down");
    expect(errors).toEqual([new Error("db down")]);
  });

  it("answers a problem authenticate throws with its own status and the request id, and reports its cause", async () => {
    const errors: unknown[] = [];
    const keysDown = new Error("JWKS unreachable");
    const handler = createServiceHandler({
      ...serviceConfig,
      store: createMemoryServiceStore(),
      authenticate: async () => {
        throw new HttpProblem(503, "auth_unavailable", "Sign-in cannot be checked right now.", {
          cause: keysDown,
        });
      },
      onError: (error) => errors.push(error),
    });

    const response = await handler.GET(new Request(`${origin}/api/cited/conversations`));

    expect(response.status).toBe(503);
    const problem = await problemOf(response);
    expect(problem.code).toBe("auth_unavailable");
    expect(problem.request_id).toBe(response.headers.get("X-Request-ID"));
    expect(errors).toEqual([keysDown]);
  });
});

describe("createServiceHandler: a store per request", () => {
  it("opens the store for each request with the request and its signed-in user, and answers from it", async () => {
    const stores = new Map([
      ["alice", createMemoryServiceStore()],
      ["bob", createMemoryServiceStore()],
    ]);
    const alices = await stores.get("alice")!.createConversation("alice", "Alice's");
    await stores.get("bob")!.createConversation("bob", "Bob's");
    const opened: Array<{ url: string; token: string | null; user: AuthenticatedUser }> = [];
    const handler = createServiceHandler({
      ...serviceConfig,
      authenticate: async (request) => {
        const token = request.headers.get("Authorization");
        return token ? { id: token.replace("Bearer ", ""), externalUserId: "ext" } : null;
      },
      store: async ({ request, user }) => {
        opened.push({ url: request.url, token: request.headers.get("Authorization"), user });
        const store = stores.get(user.id);
        if (!store) throw new Error(`no store for ${user.id}`);
        return store;
      },
    });
    const get = (path: string, user: string | null) =>
      handler.GET(
        new Request(`${origin}/api/cited${path}`, {
          headers: user ? { Authorization: `Bearer ${user}` } : {},
        }),
      );

    const listed = (await (await get("/conversations", "alice")).json()) as { conversations: unknown[] };
    expect(listed.conversations).toEqual([alices]);
    expect(opened).toEqual([
      {
        url: `${origin}/api/cited/conversations`,
        token: "Bearer alice",
        user: { id: "alice", externalUserId: "ext" },
      },
    ]);
    expect((await get(`/conversations/${alices.id}`, "bob")).status).toBe(404);
    expect(opened.map((entry) => entry.user.id)).toEqual(["alice", "bob"]);

    expect((await get("/conversations", null)).status).toBe(401);
    expect(opened).toHaveLength(2);
  });

  it("answers a generic 500 when the store cannot be opened, and reports why", async () => {
    const errors: unknown[] = [];
    const handler = createServiceHandler({
      ...serviceConfig,
      authenticate: async () => ({ id: "alice", externalUserId: "ext-alice" }),
      store: () => Promise.reject(new Error("no database connection")),
      onError: (error) => errors.push(error),
    });

    const response = await handler.GET(new Request(`${origin}/api/cited/conversations`));

    expect(response.status).toBe(500);
    expect((await problemOf(response)).detail).not.toContain("database");
    expect(errors).toEqual([new Error("no database connection")]);
  });
});

describe("createServiceHandler: one conversation", () => {
  it("reads, renames (trimming the title) and deletes the user's conversation", async () => {
    const { call, store } = setup();
    const { id } = await store.createConversation("alice", "Installing R");

    expect(await (await call("GET", `/conversations/${id}`)).json()).toMatchObject({
      id,
      title: "Installing R",
    });
    const renamed = await call("PATCH", `/conversations/${id}`, { body: '{"title":"  Plotting  "}' });
    expect(renamed.status).toBe(200);
    expect(await renamed.json()).toEqual(await store.getConversation("alice", id));
    expect((await store.getConversation("alice", id))?.title).toBe("Plotting");

    const deleted = await call("DELETE", `/conversations/${id}`);
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe("");
    expect(deleted.headers.get("X-Request-ID")).toMatch(/^req_/);
    expect(await store.listConversations("alice")).toEqual([]);
    expect((await call("GET", `/conversations/${id}/messages`)).status).toBe(404);
  });

  it("stops serving the PDFs of a deleted conversation's answers (403), without asking the service", async () => {
    const { call, serviceRequests } = setup();
    const { id } = (await (await call("POST", "/conversations", { body: "{}" })).json()) as { id: string };
    await ndjsonLines(await call("POST", `/conversations/${id}/ask`, { body: '{"message":"What is R?"}' }));
    const pdf = `/pdf/msg_4kT9xVb2QwLp7Rz/${pdfReferenceId}`;
    expect((await call("GET", pdf)).status).toBe(200);

    await call("DELETE", `/conversations/${id}`);

    const calls = serviceRequests.length;
    expect((await call("GET", pdf)).status).toBe(403);
    expect(serviceRequests).toHaveLength(calls);
  });

  it("answers 404 to reading, renaming or deleting another user's conversation, and leaves it alone", async () => {
    const { call, store } = setup();
    const bobs = await store.createConversation("bob", "Bob's");
    const path = `/conversations/${bobs.id}`;

    expect((await call("GET", path)).status).toBe(404);
    expect((await call("PATCH", path, { body: '{"title":"Taken"}' })).status).toBe(404);
    expect((await call("DELETE", path)).status).toBe(404);
    expect((await call("DELETE", `/conversations/${crypto.randomUUID()}`)).status).toBe(404);
    expect(await store.getConversation("bob", bobs.id)).toEqual(bobs);
  });

  it.each([
    ["an empty title", { title: "   " }],
    ["a title of 201 characters", { title: "a".repeat(201) }],
    ["no title", {}],
  ])("answers 422 for a rename with %s, naming the field", async (_, body) => {
    const { call, store } = setup();
    const { id } = await store.createConversation("alice", "Installing R");

    const response = await call("PATCH", `/conversations/${id}`, { body: JSON.stringify(body) });

    expect(response.status).toBe(422);
    expect((await problemOf(response)).errors?.map((error) => error.path)).toContain("title");
    expect((await store.getConversation("alice", id))?.title).toBe("Installing R");
  });

  it("names the methods a conversation takes when another is used (405)", async () => {
    const { call } = setup();

    const response = await call("POST", `/conversations/${crypto.randomUUID()}`, { body: "{}" });

    expect(response.status).toBe(405);
    expect(response.headers.get("Allow")).toBe("GET, PATCH, DELETE");
  });
});

describe("createServiceHandler: conversations and ask", () => {
  it("streams answer updates, then saved, and keeps the question and the answer", async () => {
    const { call, store, serviceRequests } = setup();
    const created = await call("POST", "/conversations", { body: JSON.stringify({ title: "R" }) });
    const { id } = (await created.json()) as { id: string };

    const response = await call("POST", `/conversations/${id}/ask`, {
      body: JSON.stringify({ message: "What is R?", detail_level: "SUCCINCT" }),
    });

    expect(response.headers.get("Content-Type")).toMatch(/^application\/x-ndjson/);
    const updates = await ndjsonLines(response);
    expect(updates.at(-1)).toEqual({ type: "saved", messageId: "msg_4kT9xVb2QwLp7Rz" });
    expect(updates.slice(0, -1).every((update) => update.type === "answer")).toBe(true);
    expect(updates.at(-2)?.answer).toEqual(JSON.parse(JSON.stringify(recorded)));
    const sent = serviceRequests[0]!;
    expect(new URL(sent.url).pathname).toBe(`/external/v1/assistants/asst_Test0001/sessions/${id}/ask`);
    expect(await sent.json()).toEqual({
      message: "What is R?",
      detail_level: "SUCCINCT",
      id_user: "ext-alice",
    });

    const listed = (await (await call("GET", `/conversations/${id}/messages`)).json()) as {
      messages: Array<{ role: string; partial: boolean; id: string }>;
    };
    expect(listed.messages.map((message) => [message.role, message.partial])).toEqual([
      ["user", false],
      ["assistant", false],
    ]);
    expect(listed.messages[1]?.id).toBe("msg_4kT9xVb2QwLp7Rz");
    expect(await store.findReference("alice", "msg_4kT9xVb2QwLp7Rz", pdfReferenceId)).not.toBeNull();
  });

  it("saves the partial answer when the browser disconnects mid-stream, and stops the service call", async () => {
    let upstream: ReturnType<typeof ndjsonBody> | undefined;
    const { call, store, serviceRequests } = setup((request) => {
      upstream = ndjsonBody(recordedLines.slice(0, 6), { hangAtEnd: true, signal: request.signal });
      return ndjsonResponse(upstream);
    });
    const id = await conversationOf(store);

    const response = await call("POST", `/conversations/${id}/ask`, { body: '{"message":"What is R?"}' });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let received = "";
    while (!received.includes("{{GIST:1}}")) {
      const { value } = await reader.read();
      received += decoder.decode(value);
    }
    await reader.cancel();

    const messages = await store.listMessages("alice", id);
    expect(messages?.map((message) => [message.role, message.partial])).toEqual([
      ["user", false],
      ["assistant", true],
    ]);
    expect(messages?.[1]?.answer).toMatchObject({ phase: "streaming", messageId: "msg_4kT9xVb2QwLp7Rz" });
    expect(messages?.[1]?.text).toContain("{{GIST:1}}");
    expect(serviceRequests[0]?.signal.aborted).toBe(true);
    expect(upstream?.cancelled).toBe(true);
  });

  it("saves the partial answer when the request's signal aborts while waiting on the service", async () => {
    const { call, store } = setup((request) =>
      ndjsonResponse(ndjsonBody(recordedLines.slice(0, 6), { hangAtEnd: true, signal: request.signal })),
    );
    const id = await conversationOf(store);
    const browser = new AbortController();

    const response = await call("POST", `/conversations/${id}/ask`, {
      body: '{"message":"What is R?"}',
      signal: browser.signal,
    });
    const reader = response.body!.getReader();
    for (let line = 0; line < 3; line += 1) await reader.read();
    const pending = reader.read();
    browser.abort();
    await pending;

    await expect.poll(async () => (await store.listMessages("alice", id))?.length).toBe(2);
    expect((await store.listMessages("alice", id))?.[1]?.partial).toBe(true);
  });

  it("ends a stream that breaks off with an error answer, saved as partial", async () => {
    const { call, store, errors } = setup(() => ndjsonResponse(recordedLines.slice(0, 6).join("\n")));
    const id = await conversationOf(store);

    const updates = await ndjsonLines(
      await call("POST", `/conversations/${id}/ask`, { body: '{"message":"What is R?"}' }),
    );

    expect(updates.at(-2)).toMatchObject({
      type: "answer",
      answer: { phase: "error", error: { code: "upstream_error" } },
    });
    expect(updates.at(-1)).toMatchObject({ type: "saved" });
    expect((await store.listMessages("alice", id))?.[1]).toMatchObject({
      partial: true,
      answer: { phase: "error" },
    });
    expect(errors).toHaveLength(1);
  });

  it.each([
    [401, 502, "invalid_key", "upstream_error"],
    [403, 502, "missing_scope", "upstream_error"],
    [429, 429, "rate_limited", "rate_limited"],
    [503, 503, "unavailable", "unavailable"],
    [500, 502, "internal_error", "upstream_error"],
  ])(
    "maps a service %i before the stream to %i for the browser, without leaking the key",
    async (status, expected, code, expectedCode) => {
      const { call, store } = setup(() =>
        problemResponse(status, code, { "Retry-After": "7" }, "Bearer sk_live_secret_key is not valid"),
      );
      const id = await conversationOf(store);

      const response = await call("POST", `/conversations/${id}/ask`, { body: '{"message":"What is R?"}' });

      expect(response.status).toBe(expected);
      expect((await problemOf(response)).code).toBe(expectedCode);
      if (status === 429) expect(response.headers.get("Retry-After")).toBe("7");
    },
  );

  it("relays rag with the user's id_user", async () => {
    const { call, serviceRequests } = setup();

    const response = await call("POST", "/rag", {
      body: JSON.stringify({ query: "platforms", max_results: 3 }),
    });

    expect(await response.json()).toEqual({ results: [] });
    expect(await serviceRequests[0]?.json()).toEqual({
      query: "platforms",
      max_results: 3,
      id_user: "ext-alice",
    });
  });
});

describe("createServiceHandler: runtime", () => {
  it("refuses to run in a browser", () => {
    Reflect.set(globalThis, "window", {});
    try {
      expect(() => setup()).toThrow(/server only/);
    } finally {
      Reflect.deleteProperty(globalThis, "window");
    }
  });
});
