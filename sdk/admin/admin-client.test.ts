import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ApiConnectionError, CitedApiError } from "../core/index.ts";
import { createAdminClient } from "./admin-client.ts";

const documentJson = {
  id: "doc_AAAAAAAAAAAA",
  file_name: "big.pdf",
  id_datasource: "ds_AAAAAAAAAAAA",
  datasource: "default",
  status: "queued",
  bytes: 6,
  sha256: "x",
  created_at: "2026-11-24T00:00:00.000Z",
  updated_at: "2026-11-24T00:00:00.000Z",
};

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function listen(
  handle: (request: IncomingMessage, body: AsyncIterable<Buffer>) => Promise<[number, unknown]>,
) {
  server = createServer(async (request, response) => {
    const [status, body] = await handle(request, request);
    response.writeHead(status, { "Content-Type": "application/json", "X-Request-ID": "req_service_1" });
    response.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("the admin client", () => {
  it("passes an upload on as it arrives: the service reads the first bytes before the rest exist", async () => {
    let firstChunkArrived: () => void = () => {};
    const firstChunk = new Promise<void>((resolve) => {
      firstChunkArrived = resolve;
    });
    const url = await listen(async (request, body) => {
      expect(request.headers.authorization).toBe("Bearer admin-token-0123456789");
      const chunks: string[] = [];
      for await (const chunk of body) {
        chunks.push(chunk.toString());
        firstChunkArrived();
      }
      expect(chunks.join("")).toBe("first second");
      return [202, { documents: [documentJson] }];
    });
    // The second half is written only once the service has the first: a client that read the whole
    // body before sending would wait here for ever.
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(new TextEncoder().encode("first "));
        await firstChunk;
        controller.enqueue(new TextEncoder().encode("second"));
        controller.close();
      },
    });
    const client = createAdminClient({ baseUrl: url, adminToken: "admin-token-0123456789" });
    const documents = await client.uploadDocuments("asst_AAAAAAAAAAAA", stream, {
      contentType: "multipart/form-data; boundary=x",
      signal: AbortSignal.timeout(10_000),
    });
    expect(documents.map((document) => document.id)).toEqual(["doc_AAAAAAAAAAAA"]);
  });

  it("keeps the service's problem details and request id when it refuses", async () => {
    const url = await listen(async () => [
      413,
      {
        type: "about:blank",
        title: "Payload too large",
        status: 413,
        code: "payload_too_large",
        detail: "Each file may be at most 10 bytes; no document was added.",
        request_id: "req_service_1",
      },
    ]);
    const client = createAdminClient({ baseUrl: url, adminToken: "admin-token-0123456789" });
    const failure = await client.limits().catch((error: unknown) => error);
    expect(CitedApiError.isInstance(failure)).toBe(true);
    if (!CitedApiError.isInstance(failure)) return;
    expect(failure.status).toBe(413);
    expect(failure.requestId).toBe("req_service_1");
    expect(failure.problem?.detail).toBe("Each file may be at most 10 bytes; no document was added.");
  });

  it("gives up on a service that does not answer, and holds a long-poll only for its wait and a margin", async () => {
    const url = await listen(() => new Promise<[number, unknown]>(() => {}));
    const client = createAdminClient({ baseUrl: url, adminToken: "admin-token-0123456789", timeoutMs: 300 });
    const started = performance.now();
    const failure = await client.limits().catch((error: unknown) => error);
    expect(ApiConnectionError.isInstance(failure)).toBe(true);
    expect(performance.now() - started).toBeLessThan(5_000);

    const watch = client
      .watchDocuments("asst_AAAAAAAAAAAA", {
        etag: null,
        waitSeconds: 1,
        signal: new AbortController().signal,
      })
      .catch((error: unknown) => error);
    // Waiting one second is asked for: not cut at the 300 ms a plain call gets.
    await new Promise((resolve) => setTimeout(resolve, 600));
    const early = await Promise.race([watch, Promise.resolve("still waiting")]);
    expect(early).toBe("still waiting");
    server?.closeAllConnections();
  });
});
