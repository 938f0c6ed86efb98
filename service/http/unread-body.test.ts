/** An early answer on a real Node server: the rest of a body within the limit is thrown away; past it, the connection closes. */
import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { settleUnreadBody } from "./unread-body.ts";

const limit = 10_000;
let server: ReturnType<typeof serve>;
let port: number;

beforeAll(async () => {
  server = serve({
    // Answers at once, never reading the body, as a handler refusing an upload does.
    fetch: async (_request, bindings) =>
      settleUnreadBody(bindings.incoming, new Response("refused", { status: 413 }), limit),
    hostname: "127.0.0.1",
    port: 0,
  });
  await new Promise((resolve) => server.once("listening", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

/** Declares `declared` bytes, sends the first 1000 at once and the rest 200 ms later; resolves with the answer's Connection header. */
function postSlowly(declared: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({
      host: "127.0.0.1",
      port,
      method: "POST",
      path: "/",
      headers: { "Content-Length": String(declared) },
    });
    request.on("error", reject);
    request.on("response", (response) => {
      response.resume();
      response.on("end", () => resolve(response.headers.connection));
    });
    request.write(Buffer.alloc(1000));
    setTimeout(() => {
      if (!request.destroyed) request.end(Buffer.alloc(declared - 1000));
    }, 200);
  });
}

describe("settleUnreadBody", () => {
  it("keeps the connection when the rest of the body is within the limit", async () => {
    expect(await postSlowly(limit)).toBe("keep-alive");
  });

  it("says Connection: close when the declared body is past the limit", async () => {
    expect(await postSlowly(limit * 10)).toBe("close");
  });
});
