/** ServiceClient with an injected fetch: headers, validation, typed errors, retries, timeouts and aborts. */
import { describe, expect, it } from "vitest";
import { collect, readFixture, rejection } from "../core/fixtures/fixture-streams.ts";
import {
  ApiConnectionError,
  ApiTimeoutError,
  AuthenticationError,
  apiErrorFrom,
  CitedApiError,
  RateLimitError,
  SDK_VERSION,
  ServiceUnavailableError,
} from "../core/index.ts";
import { retryDelay } from "./retry-policy.ts";
import { createServiceClient, type ServiceClientOptions } from "./service-client.ts";
import {
  fakeFetch,
  hangingResponse,
  ndjsonBody,
  ndjsonResponse,
  problemResponse,
  type Responder,
} from "./testing/fake-fetch.ts";

const session = "5b0f8f4e-3f43-4c36-9c1e-0b6f4d7f2a10";
const assistantId = "asst_Test0001";
const ragBody = {
  results: [
    {
      id_element: "psg_Passage001",
      id_datasource: "ds_Source0001",
      content: "R runs on Unix, Windows and macOS.",
      rank: 1,
      metadata: {
        kind: "paragraph",
        title: "R",
        file_name: "R.md",
        id_document: "doc_Doc00001",
        heading: null,
        score: 3.2,
      },
    },
  ],
};

function client(responder: Responder, options: Partial<ServiceClientOptions> = {}) {
  const fake = fakeFetch(responder);
  const service = createServiceClient({
    baseUrl: "http://service.test/",
    assistantId,
    apiKey: "sk_secret",
    fetch: fake.fetch,
    backoff: { initialMs: 1, maxMs: 4 },
    ...options,
  });
  return { service, requests: fake.requests };
}

describe("ServiceClient calls", () => {
  it("sends the key, the app code, the SDK version and JSON to the v1 rag path", async () => {
    const { service, requests } = client(() => Response.json(ragBody));

    const result = await service.rag({ query: "platforms", id_user: "u1" }, { requestId: "req_host" });

    expect(result.results[0]?.content).toContain("Unix");
    const [request] = requests;
    expect(request?.url).toBe(`http://service.test/external/v1/assistants/${assistantId}/rag`);
    expect(Object.fromEntries(request!.headers)).toMatchObject({
      authorization: "Bearer sk_secret",
      "x-app-code": "selfserve",
      "content-type": "application/json",
      "x-cited-sdk-version": SDK_VERSION,
      "x-request-id": "req_host",
    });
    expect(await request?.json()).toEqual({ query: "platforms", id_user: "u1" });
  });

  it("reduces a recorded ask stream to answers with askAnswers", async () => {
    const { service, requests } = client(() => ndjsonResponse(readFixture("answer-stream.ndjson")));

    const answers = await collect(service.askAnswers(session, { id_user: "u1", message: "What is R?" }));

    expect(requests[0]?.url).toBe(
      `http://service.test/external/v1/assistants/${assistantId}/sessions/${session}/ask`,
    );
    expect(answers.at(-1)).toMatchObject({ phase: "done", messageId: "msg_4kT9xVb2QwLp7Rz" });
  });

  it("rejects a 200 whose body is outside the contract", async () => {
    const { service } = client(() =>
      Response.json({ results: [{ id_element: 1 }] }, { headers: { "X-Request-ID": "req_bad" } }),
    );

    const error = await rejection(service.rag({ query: "platforms" }));

    expect(CitedApiError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 200, requestId: "req_bad" });
  });

  it("rejects an ask answered with something other than NDJSON", async () => {
    const { service } = client(() => Response.json({ hello: "world" }));

    expect(
      CitedApiError.isInstance(await rejection(service.ask(session, { id_user: "u", message: "m" }))),
    ).toBe(true);
  });

  it("reads a PDF slice with its headers, and refuses one without them", async () => {
    const pdf = new Uint8Array([37, 80, 68, 70]);
    const headers = { "Content-Type": "application/pdf", "X-Pdf-Slice-Start": "4", "X-Pdf-Page-Count": "3" };
    const { service, requests } = client((_, call) =>
      call === 1
        ? new Response(pdf, { headers })
        : new Response(pdf, { headers: { "Content-Type": "application/pdf" } }),
    );

    const slice = await service.pdf("tok.en", 5, "u1");
    expect(slice).toMatchObject({ sliceStart: 4, documentPageCount: 3, bytes: pdf });
    expect(requests[0]?.url).toBe("http://service.test/chat/reference/pdf/tok.en?page=5");
    expect(requests[0]?.headers.get("X-External-User-Id")).toBe("u1");
    expect(CitedApiError.isInstance(await rejection(service.pdf("tok.en", 5, "u1")))).toBe(true);
  });

  it("turns problem details into typed errors with status, code and X-Request-ID", async () => {
    const { service, requests } = client(() => problemResponse(401, "invalid_key"));

    const error = await rejection(
      service.refresh({ token: "t", id_reference: "ref_Abcdefgh1", id_user: "u", external_session: session }),
    );

    expect(AuthenticationError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 401, code: "invalid_key", requestId: "req_service" });
    expect(requests).toHaveLength(1);
  });

  it("refuses to run in a browser", () => {
    Reflect.set(globalThis, "window", {});
    try {
      expect(() => client(() => Response.json({}))).toThrow(/server only/);
    } finally {
      Reflect.deleteProperty(globalThis, "window");
    }
  });
});

describe("ServiceClient retries", () => {
  it("retries 503 twice and then succeeds", async () => {
    const { service, requests } = client((_, call) =>
      call <= 2 ? problemResponse(503, "unavailable") : Response.json(ragBody),
    );

    expect((await service.rag({ query: "q" })).results).toHaveLength(1);
    expect(requests).toHaveLength(3);
  });

  it("gives up after maxRetries with the last typed error", async () => {
    const { service, requests } = client(() => problemResponse(502, "upstream_error"), { maxRetries: 1 });

    expect(ServiceUnavailableError.isInstance(await rejection(service.rag({ query: "q" })))).toBe(true);
    expect(requests).toHaveLength(2);
  });

  it.each([400, 401, 403, 404, 409, 422, 500])("does not retry %i", async (status) => {
    const { service, requests } = client(() => problemResponse(status, "some_code"));

    await rejection(service.rag({ query: "q" }));
    expect(requests).toHaveLength(1);
  });

  it("retries network failures, and says ApiConnectionError when they last", async () => {
    const failing = client(() => Promise.reject(new TypeError("fetch failed")));
    const recovering = client((_, call) =>
      call === 1 ? Promise.reject(new TypeError("fetch failed")) : Response.json(ragBody),
    );

    const error = await rejection(failing.service.rag({ query: "q" }));
    expect(ApiConnectionError.isInstance(error) && !ApiTimeoutError.isInstance(error)).toBe(true);
    expect(failing.requests).toHaveLength(3);
    expect((await recovering.service.rag({ query: "q" })).results).toHaveLength(1);
  });

  it("times out a silent attempt with ApiTimeoutError, and retries it", async () => {
    const silent = client(hangingResponse, { timeoutMs: 20, maxRetries: 0 });
    const recovering = client(
      (request, call) => (call === 1 ? hangingResponse(request) : Response.json(ragBody)),
      {
        timeoutMs: 20,
      },
    );

    expect(ApiTimeoutError.isInstance(await rejection(silent.service.rag({ query: "q" })))).toBe(true);
    expect((await recovering.service.rag({ query: "q" })).results).toHaveLength(1);
    expect(recovering.requests).toHaveLength(2);
  });

  it("does not time out an ask stream that is still flowing after timeoutMs", async () => {
    const lines = readFixture("answer-stream.ndjson").trim().split("\n");
    const slow = new ReadableStream<Uint8Array>({
      async pull(controller) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        const line = lines.shift();
        if (line === undefined) controller.close();
        else controller.enqueue(new TextEncoder().encode(`${line}\n`));
      },
    });
    const { service } = client(() => ndjsonResponse(slow), { timeoutMs: 30 });

    const answers = await collect(service.askAnswers(session, { id_user: "u", message: "m" }));
    expect(answers.at(-1)?.phase).toBe("done");
  });

  it("waits for Retry-After, and throws at once when it asks for more than a minute", async () => {
    const soon = apiErrorFrom(429, "", { "Retry-After": "2" });
    const late = client(() => problemResponse(429, "rate_limited", { "Retry-After": "120" }));

    expect(retryDelay(0, soon)).toBe(2000);
    const error = await rejection(late.service.rag({ query: "q" }));
    expect(RateLimitError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ retryAfterSeconds: 120 });
    expect(late.requests).toHaveLength(1);
  });

  it("backs off exponentially from 0.5 s to 8 s with up to 25 % jitter", () => {
    const unavailable = apiErrorFrom(503, "");
    for (let trial = 0; trial < 50; trial += 1) {
      const first = retryDelay(0, unavailable)!;
      const second = retryDelay(1, unavailable)!;
      const tenth = retryDelay(9, unavailable)!;
      expect(first).toBeGreaterThanOrEqual(375);
      expect(first).toBeLessThanOrEqual(500);
      expect(second).toBeGreaterThanOrEqual(750);
      expect(second).toBeLessThanOrEqual(1000);
      expect(tenth).toBeGreaterThanOrEqual(6000);
      expect(tenth).toBeLessThanOrEqual(8000);
    }
  });

  it("stops retrying when the caller aborts during the backoff, and never calls again", async () => {
    const controller = new AbortController();
    const { service, requests } = client(
      () => {
        setTimeout(() => controller.abort(new Error("user left")), 5);
        return problemResponse(503, "unavailable");
      },
      { backoff: { initialMs: 10_000 } },
    );

    const started = Date.now();
    const error = await rejection(service.rag({ query: "q" }, { signal: controller.signal }));
    expect(error).toMatchObject({ message: "user left" });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(requests).toHaveLength(1);
  });

  it("does not call at all with an aborted signal, and passes the signal to fetch", async () => {
    const { service, requests } = client((request) => {
      expect(request.signal.aborted).toBe(false);
      return Response.json(ragBody);
    });

    await expect(
      service.rag({ query: "q" }, { signal: AbortSignal.abort(new Error("gone")) }),
    ).rejects.toThrow("gone");
    expect(requests).toHaveLength(0);

    const controller = new AbortController();
    const stream = ndjsonBody(readFixture("answer-stream.ndjson").trim().split("\n"), {
      hangAtEnd: true,
      signal: controller.signal,
    });
    const streaming = client(() => ndjsonResponse(stream));
    const { body } = await streaming.service.ask(
      session,
      { id_user: "u", message: "m" },
      { signal: controller.signal },
    );
    controller.abort(new Error("stop"));
    expect(streaming.requests[0]?.signal.aborted).toBe(true);
    await body.cancel();
  });
});
