/** The slice writer: valid PDFs that hold the right pages, text for text, and little else. */
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ParseSpeeds, PDFDocument, PDFName, PDFRef } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { evalPdfFolder } from "../testing/public-api-fixture.ts";
import { temporaryDirectory } from "../testing/temporary-directory.ts";
import { createSliceWriter, pageSourceOf, type SliceWriter } from "./slice-writer.ts";

const folder = temporaryDirectory("cka-slice-writer-");
const pageText = (path: string, page: number) =>
  execFileSync("pdftotext", ["-f", String(page), "-l", String(page), path, "-"], { encoding: "utf8" });

async function writerOf(path: string): Promise<SliceWriter> {
  const document = await PDFDocument.load(readFileSync(path), {
    parseSpeed: ParseSpeeds.Fastest,
    updateMetadata: false,
  });
  return createSliceWriter(pageSourceOf(document));
}

describe.each(["gnuplot.pdf", "developers-reference.pdf", "debian-reference.en.pdf"])(
  "slices of %s",
  (name) => {
    const source = join(evalPdfFolder, name);
    const writer = writerOf(source);

    it("hold the pages asked for, text for text, in a file qpdf finds no fault in", async () => {
      const { pageCount } = await writer;
      const starts = [0, Math.floor(pageCount / 2), pageCount - 3];
      for (const start of starts) {
        const indices = [start, start + 1, start + 2];
        const bytes = (await writer).write(indices);
        const path = join(folder, `${name}-${start}.pdf`);
        writeFileSync(path, bytes);
        const check = spawnSync("qpdf", ["--check", path], { encoding: "utf8" });
        expect(check.status, `${name} from page ${start}: ${check.stdout}${check.stderr}`).toBe(0);
        expect(check.stdout).toContain("No syntax or stream encoding errors found");
        for (const [at, index] of indices.entries()) {
          expect(pageText(path, at + 1), `${name} page ${index}`).toBe(pageText(source, index + 1));
        }
      }
    });

    it("are a small part of the document, and the same bytes when asked again", async () => {
      const middle = Math.floor((await writer).pageCount / 2);
      const first = (await writer).write([middle, middle + 1, middle + 2]);
      expect(first.byteLength).toBeLessThan(readFileSync(source).byteLength / 2);
      expect((await writer).write([middle, middle + 1, middle + 2])).toEqual(first);
    });
  },
);

describe("a form whose fields share one root", () => {
  it("gives a slice only its own pages' widgets", async () => {
    const document = await PDFDocument.create();
    const form = document.getForm();
    for (let index = 0; index < 30; index++) {
      const page = document.addPage([300, 200]);
      form.createTextField(`root.field${index}`).addToPage(page, { x: 10, y: 10, width: 100, height: 20 });
    }
    const slice = createSliceWriter(pageSourceOf(document)).write([10, 11, 12]);
    const widgets =
      Buffer.from(slice)
        .toString("latin1")
        .match(/\/Subtype\s*\/Widget/g) ?? [];
    expect(widgets).toHaveLength(3);
  });
});

describe("a reference to an object the document does not have", () => {
  it("still names nothing in the slice: the slice's own objects are numbered above it", async () => {
    const document = await PDFDocument.create();
    const page = document.addPage([300, 200]);
    const { context } = document;
    const note = context.obj({ Type: "Annot", Subtype: "Text", Rect: [0, 0, 9, 9] });
    page.node.set(PDFName.of("Annots"), context.obj([context.register(note)]));
    const missing = PDFRef.of(context.largestObjectNumber + 1);
    note.set(PDFName.of("Popup"), missing);
    const slice = await PDFDocument.load(createSliceWriter(pageSourceOf(document)).write([0]));
    expect(slice.context.lookup(missing)).toBeUndefined();
    expect(slice.getPageCount()).toBe(1);
  });
});

describe("a page index outside the document", () => {
  it("is refused by name", async () => {
    const document = await PDFDocument.create();
    document.addPage();
    expect(() => createSliceWriter(pageSourceOf(document)).write([0, 1])).toThrow(
      /page index 1 is outside the document's 1 pages/,
    );
  });
});
