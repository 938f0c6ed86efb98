/** The browser client with an injected fetch that replays a recorded handler stream. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { collect, rejection } from "../core/fixtures/fixture-streams.ts";
import {
  AnswerStreamError,
  ApiConnectionError,
  AuthenticationError,
  CitedApiError,
  NotFoundError,
  PermissionDeniedError,
  SDK_VERSION,
  UnprocessableEntityError,
} from "../core/index.ts";
import {
  fakeFetch,
  ndjsonBody,
  ndjsonResponse,
  problemResponse,
  type Responder,
} from "../server/testing/fake-fetch.ts";
import { createServiceBrowserClient } from "./create-service-browser-client.ts";

/** Recorded from `createServiceHandler` in front of the real service (see the README of sdk/). */
const recordedLines = readFileSync(new URL("./fixtures/ask-updates.ndjson", import.meta.url), "utf8")
  .trim()
  .split("\n");
const conversationId = "5b0f8f4e-3f43-4c36-9c1e-0b6f4d7f2a10";

function client(responder: Responder) {
  const host = fakeFetch(responder);
  return {
    cited: createServiceBrowserClient({ endpoint: "http://app.test/api/cited/", fetch: host.fetch }),
    requests: host.requests,
  };
}

describe("createServiceBrowserClient: ask", () => {
  it("yields the recorded answer updates and ends with saved", async () => {
    const { cited, requests } = client(() => ndjsonResponse(recordedLines.join("\n")));

    const updates = await collect(
      cited.ask(conversationId, "What does -p do?", { detail_level: "SUCCINCT" }),
    );

    expect(updates).toHaveLength(recordedLines.length);
    expect(updates.at(-1)).toEqual(JSON.parse(recordedLines.at(-1)!));
    const last = updates.at(-2);
    expect(last?.type === "answer" && last.answer.phase).toBe("done");
    const [request] = requests;
    expect(request?.url).toMatch(new RegExp(`/api/cited/conversations/${conversationId}/ask$`));
    expect(request?.method).toBe("POST");
    expect(request?.headers.get("Content-Type")).toBe("application/json");
    expect(request?.headers.get("X-Cited-SDK-Version")).toBe(SDK_VERSION);
    expect(await request?.json()).toEqual({ message: "What does -p do?", detail_level: "SUCCINCT" });
  });

  it("stops mid-stream on abort: rejects with the reason and cancels the response body", async () => {
    const controller = new AbortController();
    let body: ReturnType<typeof ndjsonBody> | undefined;
    const { cited } = client((request) => {
      body = ndjsonBody(recordedLines.slice(0, 3), { hangAtEnd: true, signal: request.signal });
      return ndjsonResponse(body);
    });

    const seen: string[] = [];
    const reading = (async () => {
      for await (const update of cited.ask(conversationId, "What?", { signal: controller.signal })) {
        seen.push(update.type);
        if (seen.length === 3) controller.abort(new Error("user pressed stop"));
      }
    })();

    await expect(reading).rejects.toThrow("user pressed stop");
    expect(seen).toEqual(["answer", "answer", "answer"]);
    expect(body?.cancelled).toBe(true);
  });

  it("says truncated, with the answer so far, when the stream ends before saved", async () => {
    const { cited } = client(() => ndjsonResponse(recordedLines.slice(0, -1).join("\n")));

    const error = await rejection(collect(cited.ask(conversationId, "What?")));

    expect(AnswerStreamError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ reason: "truncated", state: { phase: "done" } });
  });

  it("rejects a malformed update naming its line, and skips unknown update types", async () => {
    const unknownFirst = [JSON.stringify({ type: "progress", percent: 50 }), ...recordedLines];
    const broken = [recordedLines[0]!, JSON.stringify({ type: "answer", answer: { text: 3 } })];

    expect(
      await collect(client(() => ndjsonResponse(unknownFirst.join("\n"))).cited.ask(conversationId, "q")),
    ).toHaveLength(recordedLines.length);
    const error = await rejection(
      collect(client(() => ndjsonResponse(broken.join("\n"))).cited.ask(conversationId, "q")),
    );
    expect(error).toMatchObject({ reason: "invalid_line", lineNumber: 2, lineType: "answer" });
  });

  it("throws the typed error of a problem response before any stream", async () => {
    const { cited } = client(() => problemResponse(422, "invalid_input"));

    const error = await rejection(collect(cited.ask(conversationId, "")));

    expect(UnprocessableEntityError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 422, requestId: "req_service" });
  });
});

describe("createServiceBrowserClient: other calls", () => {
  const conversation = {
    id: conversationId,
    title: "Plotting",
    createdAt: "2026-11-21T10:00:00.000Z",
    updatedAt: "2026-11-21T10:00:00.000Z",
  };

  it("creates and lists conversations, and reads messages, validating each response", async () => {
    const answer = JSON.parse(recordedLines.at(-2)!).answer;
    const { cited, requests } = client((request) => {
      const path = new URL(request.url).pathname;
      if (request.method === "POST") return Response.json(conversation, { status: 201 });
      if (path.endsWith("/messages")) {
        return Response.json({
          messages: [
            {
              id: "msg_User00000001",
              conversationId,
              role: "user",
              text: "q",
              answer: null,
              partial: false,
              createdAt: conversation.createdAt,
            },
            {
              id: answer.messageId,
              conversationId,
              role: "assistant",
              text: answer.text,
              answer,
              partial: false,
              createdAt: conversation.createdAt,
            },
          ],
        });
      }
      return Response.json({ conversations: [conversation] });
    });

    expect(await cited.createConversation("Plotting")).toEqual(conversation);
    expect(await requests[0]?.json()).toEqual({ title: "Plotting" });
    expect(await cited.listConversations()).toEqual([conversation]);
    const messages = await cited.messages(conversationId);
    expect(messages[1]?.answer).toEqual(answer);
  });

  it("reads, renames and deletes one conversation", async () => {
    const renamed = { ...conversation, title: "Plots in R" };
    const { cited, requests } = client((request) => {
      if (request.method === "DELETE") return new Response(null, { status: 204 });
      return Response.json(request.method === "PATCH" ? renamed : conversation);
    });

    expect(await cited.conversation(conversationId)).toEqual(conversation);
    expect(await cited.renameConversation(conversationId, "Plots in R")).toEqual(renamed);
    expect(await cited.deleteConversation(conversationId)).toBeUndefined();

    const url = `http://app.test/api/cited/conversations/${conversationId}`;
    expect(requests.map((request) => [request.method, request.url])).toEqual([
      ["GET", url],
      ["PATCH", url],
      ["DELETE", url],
    ]);
    expect(requests[1]?.headers.get("Content-Type")).toBe("application/json");
    expect(await requests[1]?.json()).toEqual({ title: "Plots in R" });
    expect(await requests[2]?.text()).toBe("");
  });

  it("says NotFoundError when the conversation to rename or delete is gone or not the user's", async () => {
    const { cited } = client(() => problemResponse(404, "not_found"));

    expect(NotFoundError.isInstance(await rejection(cited.renameConversation(conversationId, "x")))).toBe(
      true,
    );
    expect(NotFoundError.isInstance(await rejection(cited.deleteConversation(conversationId)))).toBe(true);
  });

  it("rejects a response outside the contract", async () => {
    const { cited } = client(() => Response.json({ conversations: [{ id: "not-a-uuid" }] }));

    expect(CitedApiError.isInstance(await rejection(cited.listConversations()))).toBe(true);
  });

  it("reads a PDF slice with its page headers", async () => {
    const bytes = new TextEncoder().encode("%PDF-1.7");
    const { cited, requests } = client(
      () =>
        new Response(bytes, {
          headers: { "Content-Type": "application/pdf", "X-Pdf-Slice-Start": "0", "X-Pdf-Page-Count": "3" },
        }),
    );

    expect(await cited.pdf("msg_Answer000001", "ref_Reference01", { page: 1 })).toEqual({
      bytes,
      sliceStart: 0,
      documentPageCount: 3,
    });
    expect(requests[0]?.url).toMatch(/\/api\/cited\/pdf\/msg_Answer000001\/ref_Reference01\?page=1$/);
  });

  it("sends rag options and maps 401, 403 and network failures to typed errors", async () => {
    const responses = [
      () => Response.json({ results: [] }),
      () => problemResponse(401, "unauthenticated"),
      () => problemResponse(403, "forbidden"),
      () => Promise.reject(new TypeError("network down")),
    ];
    const { cited, requests } = client((_, call) => responses[call - 1]!());

    expect(await cited.rag("plots", { max_results: 2 })).toEqual({ results: [] });
    expect(await requests[0]?.json()).toEqual({ query: "plots", max_results: 2 });
    const unauthenticated = await rejection(cited.rag("plots"));
    expect(AuthenticationError.isInstance(unauthenticated)).toBe(true);
    expect(unauthenticated).toMatchObject({ requestId: "req_service", code: "unauthenticated" });
    expect(
      PermissionDeniedError.isInstance(await rejection(cited.pdf("msg_Answer000001", "ref_Reference01"))),
    ).toBe(true);
    expect(ApiConnectionError.isInstance(await rejection(cited.listConversations()))).toBe(true);
  });
});
