import { mkdir, readdir } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PdfReadError } from "../types.ts";
import { extractPdf } from "./extract-pdf.ts";
import { isOcrAvailable } from "./ocr.ts";
import { createPdfExtractorPool } from "./pool.ts";
import { type EvalPdf, evalPdfPath, makeScannedPdf, makeTwoColumnPdf, readBytes } from "./test-fixtures.ts";

const ocrInstalled = await isOcrAvailable();
const names: EvalPdf[] = ["debian-reference.en.pdf", "developers-reference.pdf", "gnuplot.pdf"];

describe("the PDF extractor pool", () => {
  const pool = createPdfExtractorPool({ size: 2 });
  afterAll(async () => {
    await pool.close();
  });

  it("extracts several PDFs at once, with the same result as in the calling thread, and reports progress", async () => {
    const progress: [number, number][] = [];
    const inputs = await Promise.all(names.map((name) => readBytes(evalPdfPath(name))));
    const results = await Promise.all(
      inputs.map((bytes, index) =>
        pool.extract(bytes, {
          ocr: false,
          onProgress: index === 1 ? (done, total) => progress.push([done, total]) : undefined,
        }),
      ),
    );
    // The bytes were handed to the worker, not copied.
    expect(inputs.map((bytes) => bytes.byteLength)).toEqual([0, 0, 0]);
    expect(results.map((result) => result.pageCount)).toEqual([261, 114, 311]);
    const inThread = await extractPdf(await readBytes(evalPdfPath("developers-reference.pdf")), {
      ocr: false,
    });
    expect(results[1]).toEqual(inThread);
    expect(progress).toHaveLength(114);
    expect(progress.at(-1)).toEqual([114, 114]);
  }, 120_000);

  it("rejects a corrupt PDF with the reason intact and keeps working", async () => {
    const error = await pool
      .extract(new TextEncoder().encode("%PDF-1.4\nnot a pdf at all"), { ocr: false })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PdfReadError);
    expect(error).toMatchObject({ reason: "corrupt" });
    const next = await pool.extract(
      makeTwoColumnPdf(["The pool still works after a failed document."], [], "Failure"),
      { ocr: false },
    );
    expect(next.blocks[0]?.sentences[0]?.text).toBe("The pool still works after a failed document.");
  });

  it("copies a view into a larger buffer instead of detaching memory the caller still uses", async () => {
    const whole = makeTwoColumnPdf(["A view of a buffer."], [], "Views");
    const padded = new Uint8Array(whole.length + 10);
    padded.set(whole, 5);
    const view = padded.subarray(5, 5 + whole.length);
    const result = await pool.extract(view, { ocr: false });
    expect(result.pageCount).toBe(1);
    expect(padded.byteLength).toBe(whole.length + 10);
  });
});

describe("a crashing extractor worker", () => {
  // A stand-in worker: exits on a one-byte input, answers otherwise.
  const crashingWorker = new URL(
    `data:text/javascript,${encodeURIComponent(`
      import { parentPort } from "node:worker_threads";
      parentPort.on("message", (request) => {
        if (request.bytes.length === 1) process.exit(7);
        const json = new TextEncoder().encode(JSON.stringify({ pageCount: request.bytes.length }));
        parentPort.postMessage({ id: request.id, type: "result", json });
      });`)}`,
  );

  it("rejects the job it was running and is replaced for the next one", async () => {
    const pool = createPdfExtractorPool({ size: 1, workerUrl: crashingWorker });
    try {
      await expect(pool.extract(new Uint8Array(1), { ocr: false })).rejects.toThrow(
        /worker stopped unexpectedly \(exit code 7\)/,
      );
      await expect(pool.extract(new Uint8Array(3), { ocr: false })).resolves.toEqual({ pageCount: 3 });
    } finally {
      await pool.close();
    }
  });

  it("rejects work once closed", async () => {
    const pool = createPdfExtractorPool({ size: 1, workerUrl: crashingWorker });
    await pool.close();
    await expect(pool.extract(new Uint8Array(3), { ocr: false })).rejects.toThrow(/closed/);
  });
});

describe("OCR scratch folders", () => {
  const ours = async (): Promise<string[]> =>
    (await readdir(os.tmpdir())).filter((name) => name.startsWith(`cited-ocr-${process.pid}-`));

  it.skipIf(!ocrInstalled)(
    "are removed when the pool stops a worker in the middle of OCR",
    async () => {
      const pool = createPdfExtractorPool({ size: 1 });
      const scanned = await makeScannedPdf(evalPdfPath("gnuplot.pdf"), 40, 150);
      const running = pool.extract(scanned, { ocr: true }).catch((error: unknown) => error);
      for (let waited = 0; (await ours()).length === 0 && waited < 20_000; waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(await ours()).toHaveLength(1);
      await pool.close();
      expect(await running).toMatchObject({ message: "The PDF extractor pool is closed." });
      expect(await ours()).toEqual([]);
    },
    60_000,
  );

  it("are removed when the process that made them is gone", async () => {
    const stale = path.join(os.tmpdir(), "cited-ocr-2147483646-1-test");
    await mkdir(stale, { recursive: true });
    const pool = createPdfExtractorPool({ size: 1 });
    await pool.close();
    expect((await readdir(os.tmpdir())).includes("cited-ocr-2147483646-1-test")).toBe(false);
  });
});
