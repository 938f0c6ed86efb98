import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PdfReadError } from "../types.ts";
import { extractPdf } from "./extract-pdf.ts";
import {
  buildPdf,
  evalPdfPath,
  makeScannedPdf,
  makeTextAndShapesPdf,
  makeTextPdf,
  qpdf,
  readBytes,
  scratchFolder,
} from "./testing/pdf-fixtures.ts";

async function failure(bytes: Uint8Array, ocr = false): Promise<PdfReadError> {
  const error = await extractPdf(bytes, { ocr }).then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof PdfReadError)) throw new Error(`expected a PdfReadError, got ${String(error)}`);
  return error;
}

describe("extractPdf failures a customer sees", () => {
  let scratch: Awaited<ReturnType<typeof scratchFolder>>;
  let single: string;
  beforeAll(async () => {
    scratch = await scratchFolder();
    single = path.join(scratch.folder, "single.pdf");
    await qpdf(["--empty", "--pages", evalPdfPath("developers-reference.pdf"), "30", "--", single]);
  });
  afterAll(async () => {
    await scratch.remove();
  });

  it("asks for an unencrypted copy of a password-protected PDF", async () => {
    const encrypted = path.join(scratch.folder, "encrypted.pdf");
    await qpdf(["--encrypt", "user", "owner", "256", "--", single, encrypted]);
    const error = await failure(await readBytes(encrypted));
    expect(error.reason).toBe("encrypted");
    expect(error.message).toBe("The PDF is password-protected; upload an unencrypted copy.");
  });

  it("reads a PDF that only has an owner password (no password needed to open it)", async () => {
    const restricted = path.join(scratch.folder, "restricted.pdf");
    await qpdf(["--encrypt", "", "owner", "256", "--", single, restricted]);
    const result = await extractPdf(await readBytes(restricted), { ocr: false });
    expect(result.blocks.length).toBeGreaterThan(3);
  });

  it("rejects bytes that are not a PDF, and a PDF cut short, as corrupt", async () => {
    const garbage = new TextEncoder().encode("%PDF-1.7\nthis is not really a PDF\n".repeat(20));
    expect((await failure(garbage)).reason).toBe("corrupt");
    const whole = await readBytes(evalPdfPath("gnuplot.pdf"));
    expect((await failure(whole.slice(0, 20_000))).reason).toBe("corrupt");
  });

  it("rejects an empty upload and a PDF without pages as empty", async () => {
    expect((await failure(new Uint8Array(0))).reason).toBe("empty");
    const noPages = buildPdf(["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [] /Count 0 >>"]);
    expect((await failure(noPages)).reason).toBe("empty");
  });

  it("says a scanned PDF cannot be searched when OCR is off", async () => {
    const scanned = await makeScannedPdf(single, 0, 100);
    const error = await failure(scanned, false);
    expect(error.reason).toBe("no_text");
    expect(error.message).toMatch(/only images .*OCR is turned off/);
  });

  it("keeps the text of a document whose only problem is one page without text, with a warning", async () => {
    const scanned = path.join(scratch.folder, "scanned.pdf");
    const mixed = path.join(scratch.folder, "mixed.pdf");
    await writeFile(scanned, await makeScannedPdf(single, 0, 100));
    await qpdf(["--empty", "--pages", single, scanned, single, "--", mixed]);
    const result = await extractPdf(await readBytes(mixed), { ocr: false });
    expect(result.pages.map((page) => page.searchable)).toEqual([true, false, true]);
    expect(result.warnings).toEqual([
      "1 page has no text and OCR is turned off, so it cannot be searched (page 2).",
    ]);
  });

  it.each([false, true])(
    "treats a blank page as blank: not rendered for OCR, no warning (OCR %s)",
    async (ocr) => {
      const text = { x: 72, y: 700, size: 12, text: "A page with enough text to need no OCR at all." };
      const result = await extractPdf(makeTextPdf([[text], [], [text]]), { ocr });
      expect(result.pages.map((page) => [page.searchable, page.ocr])).toEqual([
        [true, false],
        [true, false],
        [true, false],
      ]);
      expect(result.warnings).toEqual([]);
    },
  );

  it("does not take a page of outlined text (many shapes, no text layer) for a blank page", async () => {
    const text = "A page with enough text to need no OCR at all.";
    const result = await extractPdf(makeTextAndShapesPdf(text, [250, 3]), { ocr: false });
    expect(result.pages.map((page) => page.searchable)).toEqual([true, false, true]);
    expect(result.warnings).toEqual([
      "1 page has no text and OCR is turned off, so it cannot be searched (page 2).",
    ]);
  });
});
