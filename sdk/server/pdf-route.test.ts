/** `GET /pdf/{messageId}/{referenceId}` through the handler: ownership first, then one token renewal. */
import { describe, expect, it } from "vitest";
import type { ServiceStore } from "./service-store.ts";
import { problemResponse } from "./testing/fake-fetch.ts";
import {
  conversationOf,
  pdfBytes,
  pdfReferenceId,
  recorded,
  recordedService,
  setup,
} from "./testing/handler-harness.ts";

describe("createServiceHandler: PDF", () => {
  async function answered(store: ServiceStore, user = "alice") {
    const id = await conversationOf(store, user);
    await store.saveAnswer(user, id, "msg_4kT9xVb2QwLp7Rz", recorded, { partial: false });
    return id;
  }

  it("serves the slice to the owner with the stored token and the user's external id", async () => {
    const { call, store, serviceRequests } = setup();
    await answered(store);

    const response = await call("GET", `/pdf/msg_4kT9xVb2QwLp7Rz/${pdfReferenceId}`);

    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/pdf");
    expect(response.headers.get("X-Pdf-Slice-Start")).toBe("21");
    expect(response.headers.get("X-Pdf-Page-Count")).toBe("3");
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(pdfBytes);
    const sent = serviceRequests[0]!;
    expect(new URL(sent.url).searchParams.get("page")).toBe("22");
    expect(sent.headers.get("X-External-User-Id")).toBe("ext-alice");
  });

  it("refuses another user's reference with 403 without calling the service", async () => {
    const { call, store, serviceRequests } = setup();
    await answered(store, "bob");

    const response = await call("GET", `/pdf/msg_4kT9xVb2QwLp7Rz/${pdfReferenceId}`);

    expect(response.status).toBe(403);
    expect((await call("GET", `/pdf/msg_Unknown00001/${pdfReferenceId}`)).status).toBe(403);
    expect(serviceRequests).toHaveLength(0);
  });

  it("renews an expired token once, stores it and loads the slice", async () => {
    const { call, store, serviceRequests } = setup((request, callNumber) =>
      callNumber === 1 ? problemResponse(401, "token_expired") : recordedService(request, callNumber),
    );
    const id = await answered(store);

    const response = await call("GET", `/pdf/msg_4kT9xVb2QwLp7Rz/${pdfReferenceId}`);

    expect(response.status).toBe(200);
    expect(serviceRequests.map((request) => new URL(request.url).pathname.split("/").at(-1))).toEqual([
      expect.any(String),
      "refresh",
      "renewed",
    ]);
    expect(await serviceRequests[1]?.json()).toMatchObject({
      id_reference: pdfReferenceId,
      id_user: "ext-alice",
      external_session: id,
    });
    expect(await store.findReference("alice", "msg_4kT9xVb2QwLp7Rz", pdfReferenceId)).toMatchObject({
      pdf: { token: "renewed" },
      refreshes: 1,
    });
  });

  it("does not renew twice: a token that expires again is a 502", async () => {
    const { call, store, serviceRequests } = setup((request) =>
      new URL(request.url).pathname.endsWith("/refresh")
        ? recordedService(request, 0)
        : problemResponse(401, "token_expired"),
    );
    await answered(store);

    expect((await call("GET", `/pdf/msg_4kT9xVb2QwLp7Rz/${pdfReferenceId}`)).status).toBe(502);
    expect(serviceRequests).toHaveLength(3);
  });

  it("checks ?page= against the reference's pages", async () => {
    const { call, store, serviceRequests } = setup();
    await answered(store);

    expect((await call("GET", `/pdf/msg_4kT9xVb2QwLp7Rz/${pdfReferenceId}?page=3`)).status).toBe(422);
    expect((await call("GET", `/pdf/msg_4kT9xVb2QwLp7Rz/${pdfReferenceId}?page=22`)).status).toBe(200);
    expect(serviceRequests).toHaveLength(1);
  });
});
