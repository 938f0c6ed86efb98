import { deflateSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Matrix, Rect } from "./geometry.ts";
import { ocrBox, pictureArea } from "./page-pictures.ts";
import { openPdf } from "./pdf-document.ts";
import {
  buildPdf,
  evalPdfPath,
  makeScannedPdf,
  makeTextAndShapesPdf,
  qpdf,
  scratchFolder,
} from "./testing/pdf-fixtures.ts";

async function areaOf(bytes: Uint8Array, pageNumber = 1): Promise<ReturnType<typeof pictureArea>> {
  const { document, close } = await openPdf(bytes);
  try {
    const page = await document.getPage(pageNumber);
    const viewport = page.getViewport({ scale: 1 });
    return await pictureArea(page, viewport.transform as unknown as Matrix);
  } finally {
    await close();
  }
}

const rounded = (area: Awaited<ReturnType<typeof pictureArea>>): unknown =>
  typeof area === "string" ? area : area.map((value) => Math.round(value * 10) / 10);

/** A Letter page that shows a 1×1 image through a form XObject, each with a transform of its own. */
function imageInFormPdf(): Uint8Array {
  const stream = (dictionary: string, data: Uint8Array): Uint8Array =>
    Buffer.concat([
      Buffer.from(`<< ${dictionary} /Length ${data.length} >>\nstream\n`),
      data,
      Buffer.from("\nendstream"),
    ]);
  return buildPdf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Fm 4 0 R >> >> /Contents 6 0 R >>",
    stream(
      "/Type /XObject /Subtype /Form /BBox [0 0 1000 1000] /Matrix [0.5 0 0 0.5 100 100] /Resources << /XObject << /Im 5 0 R >> >>",
      Buffer.from("q 200 0 0 100 0 0 cm /Im Do Q"),
    ),
    stream(
      "/Type /XObject /Subtype /Image /Width 1 /Height 1 /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode",
      deflateSync(Buffer.from([0])),
    ),
    stream("", Buffer.from("q 1 0 0 1 50 60 cm /Fm Do Q")),
  ]);
}

describe("where OCR looks on a page without a text layer", () => {
  let scratch: Awaited<ReturnType<typeof scratchFolder>>;
  let original: string;
  beforeAll(async () => {
    scratch = await scratchFolder();
    original = `${scratch.folder}/original.pdf`;
    await qpdf(["--empty", "--pages", evalPdfPath("developers-reference.pdf"), "30", "--", original]);
  });
  afterAll(async () => {
    await scratch?.remove();
  });

  it("reads the whole page of a full-page scan", async () => {
    const area = await areaOf(await makeScannedPdf(original, 0, 50));
    if (typeof area === "string") throw new Error(`expected the scan's box, got ${area}`);
    expect(ocrBox(area, [], { width: 612, height: 792 })).toBe("page");
  });

  it.each([0, 90] as const)("finds the box of a picture on part of the page (/Rotate %i)", async (rotate) => {
    // The Letter page at 0.6 is 367.2 × 475.2 points, shown at (400, 40).
    const placement = { page: { width: 842, height: 595 }, at: { x: 400, y: 40 }, scale: 0.6, rotate };
    const area = await areaOf(await makeScannedPdf(original, 0, 50, placement));
    expect(rounded(area)).toEqual([400, 40, 767.2, 515.2]);
  });

  it("renders that box with a margin, and the text beside it too, unless that is most of the page", () => {
    const page = { width: 842, height: 595 };
    const picture: Rect = [400, 40, 767.2, 515.2];
    expect(rounded(ocrBox(picture, [], page))).toEqual([394, 34, 773.2, 521.2]);
    expect(rounded(ocrBox(picture, [[400, 532, 450, 542]], page))).toEqual([394, 34, 773.2, 548]);
    expect(ocrBox(picture, [[40, 40, 90, 50]], page)).toBe("page");
    expect(ocrBox([900, 40, 1000, 80], [], page)).toBe("page");
  });

  it("follows the transforms of a form that draws the picture", async () => {
    // User space x 150–250, y 160–210 on a 792-point-high page: displayed y 582–632.
    expect(rounded(await areaOf(imageInFormPdf()))).toEqual([150, 582, 250, 632]);
  });

  it("reads the whole page of outlined text, and nothing of a page with a few shapes", async () => {
    const pdf = makeTextAndShapesPdf("Some text.", [250, 3]);
    expect(await areaOf(pdf, 2)).toBe("page");
    expect(await areaOf(pdf, 3)).toBe("none");
  });
});
