/** `GET /image/{messageId}/{referenceId}` through the handler: ownership first, then one token renewal. */
import { describe, expect, it } from "vitest";
import type { AnswerState } from "../core/index.ts";
import type { ImageReference } from "../core/wire.ts";
import type { ServiceStore } from "./service-store.ts";
import { problemResponse, type Responder } from "./testing/fake-fetch.ts";
import {
  conversationOf,
  pdfReferenceId,
  recorded,
  recordedService,
  setup,
} from "./testing/handler-harness.ts";

const imageReferenceId = "ref_Img2mX9pLc";
const pngBytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const imageReference: ImageReference = {
  id: imageReferenceId,
  kind: "image",
  id_datasource: "ds_Test0001",
  id_document: "doc_Test0001",
  title: "boiler.png",
  quote: "The pump must be primed before it starts.",
  url: null,
  metadata: {},
  region: { rects: [[83, 92, 700, 118]], bbox: [83, 92, 700, 118], image_width: 1275, image_height: 1650 },
  image: { token: "image-token", expires_at: "2030-01-01T00:00:00Z" },
};
const withImage: AnswerState = {
  ...recorded,
  references: { ...recorded.references, [imageReferenceId]: imageReference },
};

/** The recorded service, whose image endpoint answers with the PNG. */
const imageService: Responder = (request, callNumber) =>
  new URL(request.url).pathname.includes("/chat/reference/image/")
    ? new Response(pngBytes, { headers: { "Content-Type": "image/png" } })
    : recordedService(request, callNumber);

async function answered(store: ServiceStore, user = "alice") {
  const id = await conversationOf(store, user);
  await store.saveAnswer(user, id, "msg_4kT9xVb2QwLp7Rz", withImage, { partial: false });
  return id;
}

describe("createServiceHandler: images", () => {
  it("serves the image to the owner with the stored token and the user's external id", async () => {
    const { call, store, serviceRequests } = setup(imageService);
    await answered(store);

    const response = await call("GET", `/image/msg_4kT9xVb2QwLp7Rz/${imageReferenceId}`);

    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("image/png");
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(pngBytes);
    const sent = serviceRequests[0]!;
    expect(new URL(sent.url).pathname).toBe("/chat/reference/image/image-token");
    expect(sent.headers.get("X-External-User-Id")).toBe("ext-alice");
  });

  it("refuses another user's reference with 403, and a reference without an image with 404", async () => {
    const { call, store, serviceRequests } = setup(imageService);
    await answered(store, "bob");
    expect((await call("GET", `/image/msg_4kT9xVb2QwLp7Rz/${imageReferenceId}`)).status).toBe(403);
    expect((await call("GET", `/image/msg_4kT9xVb2QwLp7Rz/${pdfReferenceId}`, { user: "bob" })).status).toBe(
      404,
    );
    expect(serviceRequests).toHaveLength(0);
  });

  it("renews an expired token once and stores it", async () => {
    const { call, store, serviceRequests } = setup((request, callNumber) =>
      callNumber === 1 ? problemResponse(401, "token_expired") : imageService(request, callNumber),
    );
    await answered(store);

    const response = await call("GET", `/image/msg_4kT9xVb2QwLp7Rz/${imageReferenceId}`);

    expect(response.status).toBe(200);
    expect(serviceRequests.map((request) => new URL(request.url).pathname.split("/").at(-1))).toEqual([
      "image-token",
      "refresh",
      "renewed",
    ]);
    expect(await store.findReference("alice", "msg_4kT9xVb2QwLp7Rz", imageReferenceId)).toMatchObject({
      pdf: { token: "renewed" },
      refreshes: 1,
    });
  });

  it("treats anything but an image from the service as a broken contract", async () => {
    const { call, store } = setup((request, callNumber) =>
      new URL(request.url).pathname.includes("/image/")
        ? new Response("<svg/>", { headers: { "Content-Type": "image/svg+xml" } })
        : recordedService(request, callNumber),
    );
    await answered(store);
    expect((await call("GET", `/image/msg_4kT9xVb2QwLp7Rz/${imageReferenceId}`)).status).toBe(502);
  });

  it("serves a search result's image by the token rag gave this user: 403 when the service says it is another's, 409 once expired", async () => {
    const { call, serviceRequests } = setup(imageService);
    const served = await call("GET", "/passage-image/rag-image-token");
    expect(served.status).toBe(200);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(pngBytes);
    expect(new URL(serviceRequests[0]!.url).pathname).toBe("/chat/reference/image/rag-image-token");
    expect(serviceRequests[0]!.headers.get("X-External-User-Id")).toBe("ext-alice");

    const refused = setup(() => problemResponse(403, "forbidden"));
    expect((await refused.call("GET", "/passage-image/rag-image-token")).status).toBe(403);
    const expired = setup(() => problemResponse(401, "token_expired"));
    const gone = await expired.call("GET", "/passage-image/rag-image-token");
    expect(gone.status).toBe(409);
    expect(expired.serviceRequests, "an expired search token is never renewed").toHaveLength(1);
  });
});
