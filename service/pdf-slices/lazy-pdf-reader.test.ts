/** The lazy reader: the same slices as a whole parse, from every kind of cross-reference a well-formed file has. */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ParseSpeeds, PDFDocument, PDFName } from "pdf-lib";
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

/** A PDF from numbered object bodies and a cross-reference the caller writes from the objects' offsets. */
function handMade(
  objects: Record<number, string>,
  crossReference: (offsets: Map<number, number>, at: number) => string,
  afterHeader = "\n",
): Buffer {
  let text = "%PDF-1.5\n";
  const offsets = new Map<number, number>();
  for (const [number, body] of Object.entries(objects)) {
    offsets.set(Number(number), text.length);
    text += `${number} 0 obj${afterHeader}${body}\nendobj\n`;
  }
  return Buffer.from(text + crossReference(offsets, text.length), "latin1");
}

const stream = (dictionary: string, data: string) =>
  `<< ${dictionary} /Length ${data.length} >>\nstream\n${data}\nendstream`;
/** Cross-reference stream rows with /W [1 4 2]: [type, second field, third field] each. */
const rows = (entries: [number, number, number][]) =>
  entries
    .map(([type, second, third]) =>
      String.fromCharCode(
        type,
        second >>> 24,
        (second >>> 16) & 255,
        (second >>> 8) & 255,
        second & 255,
        third >> 8,
        third & 255,
      ),
    )
    .join("");
const catalog = "<< /Type /Catalog /Pages 2 0 R >>";
const pageTree = "<< /Type /Pages /Kids [ 3 0 R ] /Count 1 >>";
const page = "<< /Type /Page /Parent 2 0 R /MediaBox [ 0 0 200 300 ] >>";

describe("hand-made files", () => {
  it("reads an object a hybrid file's table marks free and its cross-reference stream holds compressed", () => {
    const header = "3 0 ";
    const bytes = handMade(
      {
        1: catalog,
        2: pageTree,
        6: stream(`/Type /ObjStm /N 1 /First ${header.length}`, header + page),
        7: stream("/Type /XRef /W [ 1 4 2 ] /Index [ 3 1 ] /Size 8", rows([[2, 6, 0]])),
      },
      (offsets, at) => {
        const entry = (number: number) =>
          offsets.has(number)
            ? `${String(offsets.get(number)).padStart(10, "0")} 00000 n\r\n`
            : "0000000000 65535 f\r\n";
        const table = Array.from({ length: 8 }, (_, number) => entry(number)).join("");
        return `xref\n0 8\n${table}trailer\n<< /Size 8 /Root 1 0 R /XRefStm ${offsets.get(7)} >>\nstartxref\n${at}\n%%EOF\n`;
      },
    );
    const source = openLazily(bytes);
    expect(source.page(0).node.lookup(PDFName.of("MediaBox"))?.toString()).toBe("[ 0 0 200 300 ]");
  });

  it("refuses an object stream whose /N is a reference into itself, instead of reading it again and again", () => {
    const header = `3 0 5 ${page.length + 1} `;
    const objects = (offsets: Map<number, number>) =>
      rows([
        [0, 0, 65535],
        [1, offsets.get(1)!, 0],
        [1, offsets.get(2)!, 0],
        [2, 6, 0],
        [0, 0, 0],
        [2, 6, 1],
        [1, offsets.get(6)!, 0],
      ]);
    const bytes = handMade(
      {
        1: catalog,
        2: pageTree,
        6: stream(`/Type /ObjStm /N 5 0 R /First ${header.length}`, `${header}${page} 1`),
      },
      (offsets, at) =>
        `${7} 0 obj\n${stream("/Type /XRef /W [ 1 4 2 ] /Size 7 /Root 1 0 R", objects(offsets))}\nendobj\nstartxref\n${at}\n%%EOF\n`,
    );
    expect(() => openLazily(bytes).page(0)).toThrow(/\/N is a reference/);
  });

  it("refuses cross-reference rows of no bytes and subsections past the largest object number", () => {
    const trailer = (dictionary: string) => (_: Map<number, number>, at: number) =>
      `9 0 obj\n${stream(`/Type /XRef ${dictionary} /Root 1 0 R`, rows([[1, 9, 0]]))}\nendobj\nstartxref\n${at}\n%%EOF\n`;
    const objects = { 1: catalog, 2: pageTree, 3: page };
    expect(() => openLazily(handMade(objects, trailer("/W [ 0 0 0 ] /Size 1000000000")))).toThrow(
      /rows of no bytes/,
    );
    expect(() =>
      openLazily(handMade(objects, trailer("/W [ 1 4 2 ] /Index [ 9000000 1 ] /Size 9000001"))),
    ).toThrow(/bad \/Index/);
  });

  it("reads objects whose header runs into their body, as `4 0 obj[` does", () => {
    const boxed = "<< /Type /Page /Parent 2 0 R /MediaBox 4 0 R >>";
    const bytes = handMade(
      { 1: catalog, 2: pageTree, 3: boxed, 4: "[ 0 0 200 300 ]" },
      (offsets, at) => {
        const table = [0, 1, 2, 3, 4]
          .map((number) =>
            number === 0
              ? "0000000000 65535 f\r\n"
              : `${String(offsets.get(number)).padStart(10, "0")} 00000 n\r\n`,
          )
          .join("");
        return `xref\n0 5\n${table}trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n${at}\n%%EOF\n`;
      },
      "",
    );
    expect(openLazily(bytes).page(0).node.lookup(PDFName.of("MediaBox"))?.toString()).toBe("[ 0 0 200 300 ]");
  });
});
