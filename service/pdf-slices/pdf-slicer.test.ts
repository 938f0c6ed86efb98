/**
 * The PDF slicer: the right pages from the worker, from pdf-lib for files the lazy reader cannot follow and from
 * qpdf for files the worker cannot read, and a main thread that does little of the work.
 */
import { execFile, execFileSync } from "node:child_process";
import { createReadStream, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { createBlobStore } from "../blobs.ts";
import { evalPdfFolder } from "../testing/public-api-fixture.ts";
import { temporaryDirectory } from "../testing/temporary-directory.ts";
import { openLazily } from "./lazy-pdf-reader.ts";
import { createPdfSlicer, type PdfSlice, type PdfSlicer } from "./pdf-slicer.ts";
import { createSliceWriter } from "./slice-writer.ts";

const runFile = promisify(execFile);
const sliceMainThreadCpu = resolve(import.meta.dirname, "../testing/slice-main-thread-cpu.ts");
const folder = temporaryDirectory("cka-slicer-");
const gnuplot = join(evalPdfFolder, "gnuplot.pdf");
function extract(pages: string, name: string): string {
  const target = join(folder, name);
  execFileSync("qpdf", ["--empty", "--pages", gnuplot, pages, "--", target]);
  return target;
}
const single = extract("31", "single.pdf");
const encrypted = join(folder, "encrypted.pdf");
// Readable without a password, as viewers open it; neither the lazy reader nor pdf-lib decrypts.
execFileSync("qpdf", ["--encrypt", "", "owner", "256", "--", single, encrypted]);

/** gnuplot.pdf's pages 31-33 with a classic cross-reference table whose entry for one page's contents is wrong. */
function misdirected(): string {
  const plain = join(folder, "plain.pdf");
  execFileSync("qpdf", ["--empty", "--object-streams=disable", "--pages", gnuplot, "31-33", "--", plain]);
  const text = readFileSync(plain).toString("latin1");
  const contents = Number(/\/Contents (\d+) 0 R/.exec(text)![1]);
  const table = text.lastIndexOf("\nxref\n");
  const lines = text.slice(table).split("\n");
  // Line 3 is object 0's entry in the single subsection qpdf writes.
  const entry = 3 + contents;
  lines[entry] = lines[entry - 1]!;
  const target = join(folder, "misdirected.pdf");
  writeFileSync(target, Buffer.from(text.slice(0, table) + lines.join("\n"), "latin1"));
  return target;
}

const documents: Record<string, { path: string; pages: number }> = {
  gnuplot: { path: gnuplot, pages: 311 },
  "one page": { path: extract("1", "one.pdf"), pages: 1 },
  "two pages": { path: extract("1-2", "two.pdf"), pages: 2 },
  encrypted: { path: encrypted, pages: 1 },
  misdirected: { path: misdirected(), pages: 3 },
};
// The tests name documents by key; the slicer only needs a path for each.
const blobs = { pathOf: (key: string) => documents[key]!.path };

const slicers: PdfSlicer[] = [];
function slicer(options: { qpdf?: null; sliceTimeoutMs?: number } = {}): PdfSlicer {
  const created = createPdfSlicer({ blobs, ...options });
  slicers.push(created);
  return created;
}
afterAll(async () => {
  await Promise.all(slicers.map((created) => created.close()));
});

const pageText = (path: string, page: number) =>
  execFileSync("pdftotext", ["-f", String(page), "-l", String(page), path, "-"], { encoding: "utf8" });
const pageCount = (path: string) =>
  Number(/^Pages:\s+(\d+)/m.exec(execFileSync("pdfinfo", [path], { encoding: "utf8" }))?.[1]);

const rows = [
  { document: "gnuplot", page: 0, start: 0, pages: 3 },
  { document: "gnuplot", page: 150, start: 149, pages: 3 },
  { document: "gnuplot", page: 310, start: 308, pages: 3 },
  { document: "one page", page: 0, start: 0, pages: 1 },
  { document: "two pages", page: 1, start: 0, pages: 2 },
];

async function expectPages(slice: PdfSlice, row: (typeof rows)[number]): Promise<void> {
  const { path, pages } = documents[row.document]!;
  expect(slice.start).toBe(row.start);
  expect(slice.pageCount).toBe(pages);
  const slicePath = join(temporaryDirectory("cka-slice-"), "slice.pdf");
  writeFileSync(slicePath, slice.bytes);
  expect(pageCount(slicePath)).toBe(row.pages);
  const texts = Array.from({ length: row.pages }, (_, index) => pageText(slicePath, index + 1));
  for (const [index, text] of texts.entries()) {
    expect(text, `page ${index}`).toBe(pageText(path, row.start + index + 1));
  }
  expect(texts.join("").trim()).not.toBe("");
}

describe("slices from the worker", () => {
  const worker = slicer();
  it.each(rows)("page $page of $document is its $pages pages from $start, text for text", async (row) => {
    await expectPages(await worker.slice(row.document, row.page, documents[row.document]!.pages), row);
  });

  it("come from a whole parse when the cross-reference table points an object elsewhere", async () => {
    const row = { document: "misdirected", page: 1, start: 0, pages: 3 };
    const lazily = createSliceWriter(openLazily(readFileSync(documents.misdirected!.path)));
    expect(() => lazily.write([0, 1, 2])).toThrow(/does not point at it/);
    await expectPages(await slicer({ qpdf: null }).slice(row.document, row.page, 3), row);
  });
});

describe("a worker that takes longer than allowed", () => {
  it("is stopped, and qpdf slices the document from then on", async () => {
    const row = { document: "gnuplot", page: 150, start: 149, pages: 3 };
    // No worker loads its code, let alone reads gnuplot.pdf, in a millisecond.
    const impatient = slicer({ sliceTimeoutMs: 1 });
    await expectPages(await impatient.slice(row.document, row.page, 311), row);
    await expectPages(await impatient.slice(row.document, 10, 311), { ...row, page: 10, start: 9 });
  });
});

describe("an encrypted document, which the worker cannot read", () => {
  const row = { document: "encrypted", page: 0, start: 0, pages: 1 };
  it("is sliced by qpdf", async () => {
    await expectPages(await slicer().slice(row.document, row.page, 1), row);
  });

  it("is refused with the worker's reason without qpdf", async () => {
    await expect(slicer({ qpdf: null }).slice(row.document, row.page, 1)).rejects.toThrow(/PDF slice failed/);
  });
});

describe("the main thread while a cold document is sliced", () => {
  // Its own CPU time, not a timer's lateness: a loaded machine delays timers by hundreds of milliseconds
  // whatever the main thread does. In a process of its own, as the service's slicer has one.
  it("spends a fraction of what parsing the document would cost on the slice and the worker's reading ahead", async () => {
    // A real blob store, as the service has.
    const blobsFolder = join(folder, "blobs");
    const { sha256 } = await createBlobStore(blobsFolder).write(
      createReadStream(gnuplot),
      Number.POSITIVE_INFINITY,
    );
    const { stdout } = await runFile(process.execPath, [sliceMainThreadCpu, blobsFolder, sha256, "311"]);
    const { mainThreadCpuMs } = JSON.parse(stdout) as { mainThreadCpuMs: number };
    // pdf-lib's fastest parse of gnuplot.pdf and a 3-page copy take 190-300 ms of CPU; this took 14-15 ms.
    expect(mainThreadCpuMs).toBeLessThan(100);
  }, 20_000);
});
