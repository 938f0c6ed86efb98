// @vitest-environment jsdom
/** An uploaded image's evidence: loaded through the host, the quoted lines boxed where OCR found them. */
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { NotFoundError } from "../core/index.ts";
import type { Reference } from "../core/wire.ts";
import { imageReference, scannedImageReference } from "./fixtures/answers.ts";
import type { LoadImage } from "./image-evidence.tsx";
import { ReferenceEvidence } from "./reference-evidence.tsx";

afterEach(cleanup);

const neverLoadsPdf = () => new Promise<never>(() => {});

function show(reference: Reference, loadImage?: LoadImage) {
  return render(
    <ReferenceEvidence
      reference={reference}
      messageId="msg_kinds000001"
      authScope="test:tenant:alice"
      loadPdf={neverLoadsPdf}
      {...(loadImage ? { loadImage } : {})}
    />,
  );
}

describe("ImageEvidence", () => {
  it("loads the image through the host and boxes each quoted line as a share of the picture", async () => {
    const asked: string[] = [];
    const png = new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: "image/png" });
    show(scannedImageReference, async (messageId, referenceId) => {
      asked.push(`${messageId}/${referenceId}`);
      return png;
    });
    expect(screen.getByTestId("cited-image-quote").textContent).toBe(scannedImageReference.quote);
    expect(screen.getByTestId("cited-image-loading")).toBeTruthy();

    const picture = await screen.findByRole("img", {
      name: /rack-label\.png, with the quoted text highlighted/,
    });
    expect(picture.getAttribute("src")).toMatch(/^blob:/);
    expect(asked).toEqual(["msg_kinds000001/ref_image000002"]);
    const boxes = screen.getAllByTestId("cited-image-highlight").map((box) => box.style);
    expect(boxes).toHaveLength(2);
    // x 100–700 of 1000 pixels; the line grows a little above and below, never into the next line.
    expect(boxes[0]).toMatchObject({ left: "10%", width: "60%" });
    expect(Number.parseFloat(boxes[0]?.top ?? "")).toBeLessThan(25);
    expect(
      Number.parseFloat(boxes[0]?.top ?? "") + Number.parseFloat(boxes[0]?.height ?? ""),
    ).toBeLessThanOrEqual(Number.parseFloat(boxes[1]?.top ?? ""));
  });

  it("says why the image cannot be shown, and keeps the quote", async () => {
    show(scannedImageReference, async () => {
      throw new NotFoundError("gone", { status: 404, requestId: "req_1" });
    });
    expect((await screen.findByRole("alert")).textContent).toMatch(/no longer available/);
    expect(screen.getByTestId("cited-image-quote").textContent).toBe(scannedImageReference.quote);
  });

  it("shows a linked image's quote and link as before, and an uploaded one's quote without a loader", () => {
    show(imageReference);
    expect(screen.getByRole("link", { name: /Open the image/ })).toBeTruthy();
    cleanup();
    show(scannedImageReference);
    expect(screen.queryByTestId("cited-image-evidence")).toBeNull();
    expect(screen.getByText(scannedImageReference.quote)).toBeTruthy();
  });
});
