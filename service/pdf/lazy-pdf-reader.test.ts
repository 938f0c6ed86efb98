/** The lazy reader: the same slices as a whole parse, from every kind of cross-reference a well-formed file has. */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ParseSpeeds, PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { evalPdfFolder } from "../testing/public-api-fixture.ts";
import { temporaryDirectory } from "../testing/temporary-directory.ts";
import { openLazily } from "./lazy-pdf-reader.ts";
import { createSliceWriter, pageSourceOf } from "./slice-writer.ts";

const folder = temporaryDirectory("cka-lazy-reader-");
const gnuplot = join(evalPdfFolder, "gnuplot.pdf");

async function parsedWhole(bytes: Uint8Array) {
  return PDFDocument.load(bytes, { parseSpeed: ParseSpeeds.Fastest, updateMetadata: false });
}

describe.each(["gnuplot.pdf", "developers-reference.pdf", "debian-reference.en.pdf"])(
  "%s (cross-reference and object streams) read lazily",
  (name) => {
    const bytes = readFileSync(join(evalPdfFolder, name));

    it("gives every 3-page slice byte for byte as a whole parse does, before and after reading ahead and preparing", async () => {
      const document = await parsedWhole(bytes);
      const whole = createSliceWriter(pageSourceOf(document));
      const source = openLazily(bytes);
      expect(source.pageCount).toBe(document.getPageCount());
      // Numbers its page tree as the whole parse does, so that the bytes compare.
      source.largestObjectNumber = document.context.largestObjectNumber;
      const lazy = createSliceWriter(source);
      const middle = Math.floor(source.pageCount / 2);
      for (let start = 0; start + 3 <= source.pageCount; start++) {
        // The first slice reaches the middle first, as a citation does; the rest in order.
        const at = start === 0 ? middle : start === middle ? 0 : start;
        const indices = [at, at + 1, at + 2];
        expect(
          Buffer.from(lazy.write(indices)).equals(Buffer.from(whole.write(indices))),
          `pages ${at}+`,
        ).toBe(true);
      }
      const ahead = openLazily(bytes);
      ahead.largestObjectNumber = document.context.largestObjectNumber;
      let steps = 0;
      while (ahead.readAhead(5)) steps++;
      expect(steps).toBeGreaterThan(0);
      const readFirst = createSliceWriter(ahead);
      while (readFirst.prepare(5)) steps++;
      expect(
        Buffer.from(readFirst.write([middle, middle + 1])).equals(
          Buffer.from(whole.write([middle, middle + 1])),
        ),
      ).toBe(true);
    }, 60_000);
  },
);

describe("a file with a classic cross-reference table and an incremental update", () => {
  it("reads the newest version of an object the update replaced", async () => {
    const plain = join(folder, "plain.pdf");
    execFileSync("qpdf", ["--empty", "--object-streams=disable", "--pages", gnuplot, "31-33", "--", plain]);
    const original = readFileSync(plain);
    const text = original.toString("latin1");
    expect(text).toMatch(/\nxref\n/);
    const [pageRef] = (await parsedWhole(original)).getPages().map((page) => page.ref);
    const pageNumber = pageRef!.objectNumber;
    const pageText = new RegExp(`\\n${pageNumber} 0 obj\\n([\\s\\S]*?)\\nendobj`).exec(text)![1]!;
    const replaced = pageText.replace(/\/MediaBox\s*\[[^\]]*\]/, "/MediaBox [ 0 0 300 400 ]");
    expect(replaced).not.toBe(pageText);
    const previous = Number(/startxref\s+(\d+)/.exec(text.slice(-64))![1]);
    const size = Number(/\/Size (\d+)/.exec(text)![1]);
    const root = /\/Root (\d+ \d+ R)/.exec(text)![1];
    const objectAt = original.length;
    const object = `${pageNumber} 0 obj\n${replaced}\nendobj\n`;
    const xrefAt = objectAt + object.length;
    const update = `${object}xref\n${pageNumber} 1\n${String(objectAt).padStart(10, "0")} 00000 n\r\ntrailer\n<< /Size ${size} /Root ${root} /Prev ${previous} >>\nstartxref\n${xrefAt}\n%%EOF\n`;
    const updated = Buffer.concat([original, Buffer.from(update, "latin1")]);
    const source = openLazily(updated);
    expect(source.pageCount).toBe(3);
    const slicePath = join(folder, "updated-slice.pdf");
    writeFileSync(slicePath, createSliceWriter(source).write([0, 1]));
    const info = execFileSync("pdfinfo", ["-f", "1", "-l", "2", slicePath], { encoding: "utf8" });
    expect(info).toMatch(/Page\s+1 size:\s+300 x 400 pts/);
    expect(info).toMatch(/Page\s+2 size:\s+612 x 792 pts/);
    expect(execFileSync("pdftotext", ["-f", "2", "-l", "2", slicePath, "-"], { encoding: "utf8" })).toBe(
      execFileSync("pdftotext", ["-f", "32", "-l", "32", gnuplot, "-"], { encoding: "utf8" }),
    );
  });
});

describe("files the lazy reader refuses, for the slicer to read another way", () => {
  it("refuses an encrypted file, a cross-reference offset that points elsewhere, and a file without startxref", () => {
    const single = join(folder, "single.pdf");
    const encrypted = join(folder, "encrypted.pdf");
    execFileSync("qpdf", ["--empty", "--pages", gnuplot, "31", "--", single]);
    execFileSync("qpdf", ["--encrypt", "", "owner", "256", "--", single, encrypted]);
    expect(() => openLazily(readFileSync(encrypted))).toThrow(/encrypted/);

    const bytes = readFileSync(single);
    const text = bytes.toString("latin1");
    const startxref = Number(/startxref\s+(\d+)/.exec(text.slice(-64))![1]);
    const shifted = Buffer.from(text.replace(/startxref\s+\d+/, `startxref\n${startxref - 7}`), "latin1");
    expect(() => createSliceWriter(openLazily(shifted)).write([0])).toThrow();
    expect(() => openLazily(bytes.subarray(0, bytes.length - 40))).toThrow(/startxref/);
  });
});
