import { mkdir, readdir } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PdfReadError } from "../types.ts";
import { extractPdf } from "./extract-pdf.ts";
import { isOcrAvailable } from "./ocr.ts";
import { createPdfExtractorPool } from "./pool.ts";
import {
  type EvalPdf,
  evalPdfPath,
  makeScannedPdf,
  makeTwoColumnPdf,
  readBytes,
  scratchFolder,
} from "./testing/pdf-fixtures.ts";

const ocrInstalled = await isOcrAvailable();
const everyPage = (count: number): number[] => Array.from({ length: count }, (_, index) => index);
const names: EvalPdf[] = ["debian-reference.en.pdf", "developers-reference.pdf", "gnuplot.pdf"];

// Imported from a data: URL so the stand-in sees its settings in its own URL's query.
const standIn = (settings: string): URL => {
  const script = new URL(`./testing/stand-in-worker.ts?${settings}`, import.meta.url);
  return new URL(`data:text/javascript,${encodeURIComponent(`import ${JSON.stringify(script.href)};`)}`);
};

/**
 * A two-thread pool on the stand-in worker, given `settings(flag)` with a flag file in a scratch folder;
 * no range is read before both threads are up, so a helper joins. Gives the pool and the flag folder's names.
 */
async function withTwoThreadStandIn(
  settings: (flag: (name: string) => string) => string,
  use: (pool: ReturnType<typeof createPdfExtractorPool>, flags: () => Promise<string[]>) => Promise<void>,
): Promise<void> {
  const scratch = await scratchFolder();
  const threads = await scratchFolder();
  const flag = (name: string): string => path.join(scratch.folder, name);
  const pool = createPdfExtractorPool({
    size: 2,
    workerUrl: standIn(`${settings(flag)}&started=${threads.folder}&threads=2`),
  });
  try {
    await use(pool, () => readdir(scratch.folder));
  } finally {
    await pool.close();
    await scratch.remove();
    await threads.remove();
  }
}

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
    // The caller's bytes are copied, not taken.
    expect(inputs.map((bytes) => bytes.byteLength)).toEqual([1281892, 573430, 1278455]);
    expect(results.map((result) => result.pageCount)).toEqual([261, 114, 311]);
    const inThread = await extractPdf(await readBytes(evalPdfPath("developers-reference.pdf")), {
      ocr: false,
    });
    expect(results[1]).toEqual(inThread);
    expect(progress).toHaveLength(114);
    expect(progress.at(-1)).toEqual([114, 114]);
  }, 120_000);

  it("reads one large PDF with both workers and joins its pages into the same result", async () => {
    const single = await pool.extract(await readBytes(evalPdfPath("gnuplot.pdf")), { ocr: false });
    const inThread = await extractPdf(await readBytes(evalPdfPath("gnuplot.pdf")), { ocr: false });
    expect(single).toEqual(inThread);
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

  it("reads a view into a larger buffer and leaves the caller's buffer as it was", async () => {
    const whole = makeTwoColumnPdf(["A view of a buffer."], [], "Views");
    const padded = new Uint8Array(whole.length + 10);
    padded.set(whole, 5);
    const view = padded.subarray(5, 5 + whole.length);
    const result = await pool.extract(view, { ocr: false });
    expect(result.pageCount).toBe(1);
    expect(padded.byteLength).toBe(whole.length + 10);
  });
});

describe("the pool's threads", () => {
  it("starts a thread only for a document to read: one for a short one, a second to help with a long one", async () => {
    const scratch = await scratchFolder();
    const pool = createPdfExtractorPool({ size: 2, workerUrl: standIn(`started=${scratch.folder}`) });
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await readdir(scratch.folder)).toEqual([]);
      await expect(pool.extract(new Uint8Array(3), { ocr: false })).resolves.toMatchObject({ pageCount: 3 });
      expect(await readdir(scratch.folder)).toHaveLength(1);
      await expect(pool.extract(new Uint8Array(400), { ocr: false })).resolves.toMatchObject({
        pageCount: 400,
      });
      // On a busy machine the owner may finish before the helper's thread is up; it was started all the same.
      for (let waited = 0; (await readdir(scratch.folder)).length < 2 && waited < 10_000; waited += 20) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(await readdir(scratch.folder)).toHaveLength(2);
    } finally {
      await pool.close();
      await scratch.remove();
    }
  });
});

describe("a crashing extractor worker", () => {
  it("rejects the document its owner was reading and is replaced for the next one", async () => {
    const pool = createPdfExtractorPool({ size: 1, workerUrl: standIn("crash=owner") });
    try {
      await expect(pool.extract(new Uint8Array(1), { ocr: false })).rejects.toThrow(
        /worker stopped unexpectedly \(exit code 7\)/,
      );
      await expect(pool.extract(new Uint8Array(3), { ocr: false })).resolves.toMatchObject({
        pageCount: 3,
        pages: [0, 1, 2],
      });
    } finally {
      await pool.close();
    }
  });

  it("costs a helper's pages only a second reading: every page ends up in the document once", async () => {
    await withTwoThreadStandIn(
      (flag) => `crashHelperOnce=${flag("crashed")}`,
      async (pool, flags) => {
        const progress: number[] = [];
        const result = await pool.extract(new Uint8Array(400), {
          ocr: false,
          onProgress: (done) => progress.push(done),
        });
        expect(await flags()).toEqual(["crashed"]);
        expect(result).toMatchObject({ pageCount: 400, pages: everyPage(400) });
        expect(progress.at(-1)).toBe(400);
      },
    );
  });

  it("costs a helper's failed range only a second reading, by the owner", async () => {
    await withTwoThreadStandIn(
      (flag) => `failHelperOnce=${flag("failed")}`,
      async (pool, flags) => {
        const result = await pool.extract(new Uint8Array(400), { ocr: false });
        expect(await flags()).toEqual(["failed"]);
        expect(result).toMatchObject({ pageCount: 400, pages: everyPage(400) });
      },
    );
  });

  it("reads the next ranges while one waits for OCR, and a crash after that loses no page", async () => {
    await withTwoThreadStandIn(
      (flag) => `holdFirstRangeMs=2000&crashHelperOnce=${flag("crashed")}&crashAtRead=3`,
      async (pool, flags) => {
        const result = await pool.extract(new Uint8Array(400), { ocr: false });
        expect(await flags()).toEqual(["crashed"]);
        // The helper answered its second range before its first, then died holding the first and its third.
        expect(result).toMatchObject({ pageCount: 400, pages: everyPage(400) });
        const { answered } = result as unknown as { answered: number[] };
        expect(answered.indexOf(0)).toBeGreaterThan(0);
      },
    );
  });

  it("rejects a document two workers are reading when the pool closes", async () => {
    const threads = await scratchFolder();
    const pool = createPdfExtractorPool({
      size: 2,
      workerUrl: standIn(`started=${threads.folder}&threads=2`),
    });
    const pagesDone: number[] = [];
    const running = pool
      .extract(new Uint8Array(4000), { ocr: false, onProgress: (done) => pagesDone.push(done) })
      .catch((error: unknown) => error);
    while (pagesDone.length < 200) await new Promise((resolve) => setTimeout(resolve, 5));
    await pool.close();
    await threads.remove();
    expect(await running).toMatchObject({ message: "The PDF extractor pool is closed." });
  });

  it("rejects work once closed", async () => {
    const pool = createPdfExtractorPool({ size: 1, workerUrl: standIn("") });
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
