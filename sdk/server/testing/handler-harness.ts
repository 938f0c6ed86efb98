/** Test support: the handler in front of a fake service that replays a recorded ask stream. */
import { expect } from "vitest";
import { readFixture } from "../../core/fixtures/fixture-streams.ts";
import { reduceAnswerText } from "../../core/index.ts";
import type { ProblemDetails } from "../../core/wire.ts";
import { createServiceHandler } from "../create-service-handler.ts";
import { createMemoryServiceStore } from "../memory-service-store.ts";
import type { ServiceStore } from "../service-store.ts";
import { fakeFetch, ndjsonResponse, type Responder } from "./fake-fetch.ts";

export const origin = "https://app.example";
export const recordedLines = readFixture("answer-stream.ndjson").trim().split("\n");
export const recorded = reduceAnswerText(readFixture("answer-stream.ndjson"));
export const pdfReferenceId = "ref_7Hq2mX9pLc";
export const pdfBytes = new TextEncoder().encode("%PDF-1.7 slice");

/** The fake service: ask replays the recording, rag and the PDF endpoints answer like the real one. */
export const recordedService: Responder = (request) => {
  const path = new URL(request.url).pathname;
  if (path.endsWith("/ask")) return ndjsonResponse(recordedLines.join("\n"));
  if (path.endsWith("/rag")) return Response.json({ results: [] });
  if (path.endsWith("/refresh"))
    return Response.json({ token: "renewed", expires_at: "2030-01-01T00:00:00Z" });
  return new Response(pdfBytes, {
    headers: { "Content-Type": "application/pdf", "X-Pdf-Slice-Start": "21", "X-Pdf-Page-Count": "3" },
  });
};

export function setup(
  responder: Responder = recordedService,
  options: { maxBodyBytes?: number; store?: ServiceStore } = {},
) {
  const service = fakeFetch(responder);
  const store = options.store ?? createMemoryServiceStore();
  const errors: unknown[] = [];
  const handler = createServiceHandler({
    baseUrl: "http://service.test",
    assistantId: "asst_Test0001",
    apiKey: "sk_live_secret_key",
    allowedOrigin: origin,
    store,
    fetch: service.fetch,
    maxRetries: 0,
    onError: (error) => errors.push(error),
    authenticate: async (request) => {
      const user = request.headers.get("X-Test-User");
      return user ? { id: user, externalUserId: `ext-${user}` } : null;
    },
    ...options,
  });
  const call = (
    method: string,
    path: string,
    init: {
      body?: BodyInit;
      user?: string | null;
      origin?: string | null;
      headers?: Record<string, string>;
      signal?: AbortSignal;
    } = {},
  ) => {
    const headers: Record<string, string> = { ...init.headers };
    if (init.user !== null) headers["X-Test-User"] = init.user ?? "alice";
    // As browsers do: Origin on every same-origin request but GET and HEAD.
    if (init.origin !== null && method !== "GET" && method !== "HEAD") headers.Origin = init.origin ?? origin;
    if (typeof init.body === "string" && !headers["Content-Type"])
      headers["Content-Type"] = "application/json";
    return handler(
      new Request(`${origin}/api/cited${path}`, {
        method,
        headers,
        ...(init.body === undefined ? {} : { body: init.body }),
        ...(init.signal ? { signal: init.signal } : {}),
      }),
    );
  };
  return { handler, store, call, serviceRequests: service.requests, errors };
}

export async function conversationOf(store: ServiceStore, user = "alice"): Promise<string> {
  return (await store.createConversation(user)).id;
}

export async function problemOf(response: Response): Promise<ProblemDetails> {
  expect(response.headers.get("Content-Type")).toBe("application/problem+json");
  const body = (await response.json()) as ProblemDetails;
  expect(body.request_id).toBe(response.headers.get("X-Request-ID"));
  expect(JSON.stringify(body)).not.toMatch(/sk_live|\bat .*\.ts:\d+/);
  return body;
}

export async function ndjsonLines(response: Response): Promise<Array<Record<string, unknown>>> {
  const text = await response.text();
  return text
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
