/**
 * Uploaded images against a real service: read with OCR, cited as `image` references with the quote's
 * rectangles, and served by the image endpoint to the reference's user only; bad image files fail alone.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DocumentRecord } from "../../sdk/admin/schemas.ts";
import { reduceAnswerText } from "../../sdk/core/index.ts";
import { publicPaths } from "../../sdk/core/service-paths.ts";
import { type ImageReference, ragResponseSchema } from "../../sdk/core/wire.ts";
import { isOcrAvailable } from "../ingest/pdf/ocr.ts";
import { expectProblem, type PublicCall } from "../testing/public-api-client.ts";
import {
  fixtureStartTimeout,
  mintedReference,
  type PublicApiFixture,
  startPublicApiFixture,
  testSession,
  testUser,
} from "../testing/public-api-fixture.ts";
import { renderTextImage } from "../testing/text-image.ts";

const ocrInstalled = await isOcrAvailable();
const skipped = ocrInstalled ? "" : " (skipped: tesseract with English data or pdftoppm is not installed)";

let fixture: PublicApiFixture;
let askKey: string;
let original: Uint8Array;

beforeAll(async () => {
  if (!ocrInstalled) return;
  const picture = await renderTextImage([
    "The boiler pump must be primed with water before it starts.",
    "Check the relief valve every spring and replace its seal.",
  ]);
  original = picture.bytes;
  fixture = await startPublicApiFixture({ files: [{ path: picture.path }], env: { CKA_OCR: "auto" } });
  askKey = (await fixture.createKey(["ask", "rag"])).key;
}, fixtureStartTimeout);
afterAll(async () => {
  await fixture?.stop();
});

const send = (call: Omit<PublicCall, "key">) => fixture.call({ key: askKey, ...call });
const getImage = (token: string, user: string = testUser) =>
  send({ path: publicPaths.image(token), headers: { "X-External-User-Id": user } });

async function askForImage(message: string): Promise<ImageReference> {
  const response = await send({
    path: publicPaths.ask(fixture.assistant.id, randomUUID()),
    body: { id_user: testUser, message },
  });
  const answer = reduceAnswerText(await response.text());
  const reference = Object.values(answer.references).find(
    (candidate): candidate is ImageReference => candidate.kind === "image",
  );
  if (!reference) throw new Error(`no image reference in: ${answer.text}`);
  return reference;
}

describe(`images as sources${skipped}`, () => {
  it.skipIf(!ocrInstalled)(
    "cites an image with the quote's rectangles and serves it to the user",
    async () => {
      const reference = await askForImage("When must the boiler pump be primed?");
      expect(reference.quote).toContain("primed with water");
      expect(reference.title).toMatch(/\.png$/);
      const region = reference.region!;
      expect(region).toMatchObject({ image_width: 1275, image_height: 1650 });
      expect(region.rects.length).toBeGreaterThan(0);
      for (const [x0, y0, x1, y1] of region.rects) {
        expect(0 <= x0 && x0 < x1 && x1 <= region.image_width, `${[x0, x1]}`).toBe(true);
        expect(0 <= y0 && y0 < y1 && y1 <= region.image_height, `${[y0, y1]}`).toBe(true);
      }
      const response = await getImage(reference.image!.token);
      expect(response.status).toBe(200);
      expect(response.headers.get("Content-Type")).toBe("image/png");
      expect(response.headers.get("Cache-Control")).toMatch(/^private, max-age=\d+$/);
      expect(new Uint8Array(await response.arrayBuffer())).toEqual(original);
    },
  );

  it.skipIf(!ocrInstalled)("serves the image to no other user, and its token opens no PDF page", async () => {
    const reference = await askForImage("When should the seal of the relief valve be replaced?");
    const token = reference.image!.token;
    await expectProblem(await getImage(token, "someone-else"), 403, "forbidden");
    await expectProblem(
      await send({ path: publicPaths.pdfPage(token, 0), headers: { "X-External-User-Id": testUser } }),
      401,
      "invalid_token",
    );
    // And a PDF token opens no image.
    const pdfToken = fixture.mintPdfToken({ pages: [0] });
    await expectProblem(await getImage(pdfToken), 401, "invalid_token");
  });

  it.skipIf(!ocrInstalled)("renews an expired image token once through the PDF refresh", async () => {
    const expired = fixture.mintPdfToken({ media: "image", pages: [0] }, -5);
    await expectProblem(await getImage(expired), 401, "token_expired");
    const renewed = await send({
      path: publicPaths.pdfRefresh,
      body: {
        token: expired,
        id_reference: mintedReference,
        id_user: testUser,
        external_session: testSession,
      },
    });
    expect(renewed.status).toBe(200);
    const { token } = (await renewed.json()) as { token: string };
    expect((await getImage(token)).status).toBe(200);
  });

  it.skipIf(!ocrInstalled)("rag finds the image's passage with its rectangles in pixels", async () => {
    const response = await send({
      path: publicPaths.rag(fixture.assistant.id),
      body: { query: "relief valve seal", max_results: 3 },
    });
    const { results } = ragResponseSchema.parse(await response.json());
    const [first] = results;
    expect(first?.metadata).toMatchObject({ kind: "image", image_width: 1275, image_height: 1650 });
    expect(first?.metadata.rects?.length).toBeGreaterThan(0);
    expect(first?.metadata.page_index).toBeUndefined();
    expect(first?.metadata.image, "no token without an id_user").toBeUndefined();
  });

  it.skipIf(!ocrInstalled)(
    "rag found for a user gives the image passage a token that serves it to that user",
    async () => {
      const response = await send({
        path: publicPaths.rag(fixture.assistant.id),
        body: { query: "relief valve seal", max_results: 3, id_user: testUser },
      });
      const { results } = ragResponseSchema.parse(await response.json());
      const token = results[0]?.metadata.image?.token;
      expect(token).toBeDefined();
      const served = await getImage(token!);
      expect(served.status).toBe(200);
      expect(new Uint8Array(await served.arrayBuffer())).toEqual(original);
      await expectProblem(await getImage(token!, "someone-else"), 403, "forbidden");
    },
  );

  it.skipIf(!ocrInstalled)(
    "fails truncated, mislabelled and empty images with a reason, and keeps the rest",
    async () => {
      const upload = async (name: string, bytes: Uint8Array): Promise<DocumentRecord> => {
        const form = new FormData();
        form.append("files", new Blob([new Uint8Array(bytes)]), name);
        const [document] = await fixture.admin.uploadDocuments(fixture.assistant.id, form);
        return document!;
      };
      const uploaded = [
        await upload("cut.png", original.slice(0, original.length >> 2)),
        await upload("notes.jpg", new TextEncoder().encode("/etc/passwd\n")),
        await upload("empty.webp", new Uint8Array()),
      ];
      const deadline = Date.now() + 60_000;
      let documents = await fixture.admin.listDocuments(fixture.assistant.id);
      const settled = () =>
        uploaded.every((sent) =>
          documents.some((document) => document.id === sent.id && document.status === "failed"),
        );
      while (!settled() && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        documents = await fixture.admin.listDocuments(fixture.assistant.id);
      }
      const errorOf = (name: string) => documents.find((document) => document.file_name === name)?.error;
      expect(errorOf("cut.png")).toBe("The PNG image could not be read; it may be truncated or damaged.");
      expect(errorOf("notes.jpg")).toBe("The file is named .jpg but is not a PNG, JPEG, TIFF or WebP image.");
      expect(errorOf("empty.webp")).toBe("The file is empty.");
      expect(documents.filter((document) => document.status === "ready")).toHaveLength(1);
      expect((await askForImage("When must the boiler pump be primed?")).quote).toContain("primed");
    },
  );
});
