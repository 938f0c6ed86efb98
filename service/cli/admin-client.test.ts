import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAdminClient } from "../../sdk/admin/index.ts";
import { type DocumentListing, watchListing } from "./admin-client.ts";

describe("watching documents on a service that cannot long-poll", () => {
  let server: Server;
  let requests = 0;
  let url = "";
  beforeAll(async () => {
    // An older service: no ETag, so every request is answered at once.
    server = createServer((_request, response) => {
      requests++;
      response.writeHead(200, { "Content-Type": "application/json" }).end('{"documents":[]}');
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("falls back to polling instead of asking again and again", async () => {
    const client = createAdminClient({ baseUrl: url, adminToken: "token" });
    let listing: DocumentListing = { documents: [], etag: null };
    const started = performance.now();
    while (performance.now() - started < 1000) listing = await watchListing(client, "asst_1", listing, 2);
    expect(listing.etag).toBeNull();
    expect(requests).toBeLessThanOrEqual(6);
  });
});
