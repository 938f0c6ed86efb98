// @vitest-environment jsdom
/** useCitedChat over the real browser client, in front of a host endpoint replaying a recorded handler stream. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { act, renderHook, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { createServiceBrowserClient } from "../browser/create-service-browser-client.ts";
import { RateLimitError } from "../core/api-errors.ts";
import {
  fakeFetch,
  ndjsonBody,
  ndjsonResponse,
  problemResponse,
  type Responder,
} from "../server/testing/fake-fetch.ts";
import { type UseCitedChatOptions, useCitedChat } from "./use-cited-chat.ts";

/** Recorded from createServiceHandler in front of the real service. */
const recordedLines = readFileSync(
  join(import.meta.dirname, "../browser/fixtures/ask-updates.ndjson"),
  "utf8",
)
  .trim()
  .split("\n");
const savedId = "msg_t1FZ7sguQVIF2d2JfRlb";
const conversationId = "5b0f8f4e-3f43-4c36-9c1e-0b6f4d7f2a10";

/** The host endpoint: creates one conversation, and answers every ask with the recording. */
const recordedHost: Responder = async (request) => {
  const path = new URL(request.url).pathname;
  if (path.endsWith("/conversations") && request.method === "POST") {
    const { title } = (await request.clone().json()) as { title: string };
    const now = new Date().toISOString();
    return Response.json({ id: conversationId, title, createdAt: now, updatedAt: now }, { status: 201 });
  }
  return ndjsonResponse(recordedLines.join("\n"));
};

function chatOver(responder: Responder) {
  const host = fakeFetch(responder);
  const client = createServiceBrowserClient({ endpoint: "http://app.test/api/cited", fetch: host.fetch });
  const created: string[] = [];
  const options: UseCitedChatOptions = { client, onConversationCreated: (id) => created.push(id) };
  return { requests: host.requests, created, hook: renderHook(() => useCitedChat(options)) };
}

const finalAnswer = JSON.parse(recordedLines.at(-2)!).answer as { text: string };

describe("useCitedChat", () => {
  it("asks a first question in a conversation it creates, and ends with the answer saved", async () => {
    const { hook, created, requests } = chatOver(recordedHost);

    let taken = false;
    await act(async () => {
      taken = await hook.result.current.ask("What is R?");
    });

    const chat = hook.result.current;
    expect(taken).toBe(true);
    expect(chat.status).toBe("ready");
    expect(created).toEqual([conversationId]);
    expect(chat.conversationId).toBe(conversationId);
    expect(await requests[0]?.json()).toEqual({ title: "What is R?" });
    const [question, answer] = chat.messages;
    expect(question).toMatchObject({ role: "user", text: "What is R?" });
    expect(answer).toMatchObject({
      messageId: savedId,
      role: "assistant",
      streaming: false,
      text: finalAnswer.text,
    });
    expect(chat.live?.messageId).toBe(savedId);
  });

  it("keeps earlier turns in order and asks the next one in the same conversation", async () => {
    const { hook, created } = chatOver(recordedHost);

    await act(() => hook.result.current.ask("What is R?"));
    await act(() => hook.result.current.ask("And S?"));

    expect(created).toHaveLength(1);
    expect(hook.result.current.messages.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "user",
      "assistant",
    ]);
    expect(hook.result.current.messages[2]?.text).toBe("And S?");
  });

  it("shows the answer as it streams, and stop ends the request and keeps what arrived", async () => {
    const { hook, requests } = chatOver((request, call) =>
      request.url.endsWith("/ask")
        ? ndjsonResponse(ndjsonBody(recordedLines.slice(0, 3), { hangAtEnd: true, signal: request.signal }))
        : recordedHost(request, call),
    );

    let asked: Promise<boolean> = Promise.resolve(false);
    act(() => {
      asked = hook.result.current.ask("What is R?");
    });
    await waitFor(() => expect(hook.result.current.status).toBe("streaming"));
    await waitFor(() => expect(hook.result.current.messages.at(-1)?.streaming).toBe(true));
    act(() => hook.result.current.stop());
    await act(() => asked);

    expect(hook.result.current.status).toBe("ready");
    expect(hook.result.current.live?.stopped).toBe(true);
    expect(hook.result.current.messages.map((message) => message.role)).toEqual(["user"]);
    expect(requests.at(-1)?.signal.aborted).toBe(true);
  });

  it("gives the error with its request id, keeps the question, and retry asks it again", async () => {
    let refuse = true;
    const { hook } = chatOver((request, call) =>
      request.url.endsWith("/ask") && refuse
        ? problemResponse(429, "rate_limited", { "Retry-After": "1" })
        : recordedHost(request, call),
    );

    let taken = true;
    await act(async () => {
      taken = await hook.result.current.ask("What is R?");
    });

    const failed = hook.result.current;
    expect(taken).toBe(false);
    expect(failed.status).toBe("error");
    expect(failed.error).toBeInstanceOf(RateLimitError);
    expect((failed.error as RateLimitError).requestId).toMatch(/^req_/);
    expect(failed.failedIn).toBe(failed.conversationId);
    expect(failed.messages).toEqual([]);

    refuse = false;
    await act(async () => {
      taken = await hook.result.current.retry();
    });
    expect(taken).toBe(true);
    expect(hook.result.current.error).toBeNull();
    expect(hook.result.current.messages.at(-1)?.text).toBe(finalAnswer.text);
  });

  it("takes no second question while an answer is being written: one conversation, one answer", async () => {
    const { hook, created, requests } = chatOver((request, call) =>
      request.url.endsWith("/ask")
        ? ndjsonResponse(ndjsonBody(recordedLines.slice(0, 3), { hangAtEnd: true, signal: request.signal }))
        : recordedHost(request, call),
    );

    let first: Promise<boolean> = Promise.resolve(false);
    act(() => {
      first = hook.result.current.ask("What is R?");
    });
    await waitFor(() => expect(hook.result.current.status).toBe("streaming"));
    let second = true;
    await act(async () => {
      second = await hook.result.current.ask("And S?");
    });
    expect(second).toBe(false);
    act(() => hook.result.current.stop());
    await act(() => first);

    expect(created).toHaveLength(1);
    expect(requests.filter((request) => request.url.endsWith("/ask"))).toHaveLength(1);
    expect(hook.result.current.messages.map((message) => message.text)).toEqual(["What is R?"]);
  });
});
