/** E-books: chapters in reading order, each chapter's title heading its blocks. */
import { describe, expect, it } from "vitest";
import { readEpub } from "./read-epub.ts";
import { epub } from "./testing/build-documents.ts";

describe("readEpub", () => {
  it("heads each chapter's blocks with its table-of-contents title, its own headings below", () => {
    const result = readEpub(
      "book.epub",
      epub(
        [
          {
            file: "text/one.xhtml",
            navTitle: "Chapter 1: Tapes",
            body: "<p>Tapes rotate weekly.</p><h2>Labels</h2><p>Each tape has a label.</p>",
          },
          {
            file: "text/two.xhtml",
            navTitle: "Chapter 2: Vault",
            body: "<h1>Chapter 2: Vault</h1><p>The vault is locked.</p>",
          },
          { file: "text/three.xhtml", navTitle: null, body: "<p>An untitled afterword.</p>" },
        ],
        { title: "Backups" },
      ),
      {},
    );
    expect(result.title).toBe("Backups");
    expect(
      result.blocks.map((block) => [block.headingPath, block.sentences.map((s) => s.text).join(" ")]),
    ).toEqual([
      [["Chapter 1: Tapes"], "Tapes rotate weekly."],
      [["Chapter 1: Tapes", "Labels"], "Each tape has a label."],
      [["Chapter 2: Vault"], "The vault is locked."],
      [["x"], "An untitled afterword."],
    ]);
  });

  it("refuses a book whose chapters are all encrypted (DRM)", () => {
    const book = epub([{ file: "one.xhtml", navTitle: "One", body: "<p>Secret.</p>" }], {
      encrypted: ["OEBPS/one.xhtml"],
    });
    expect(() => readEpub("book.epub", book, {})).toThrow(
      "The EPUB book is locked with DRM: its chapters are encrypted and cannot be read.",
    );
  });

  it("reads the chapters that are not encrypted, and says how many are left out", () => {
    const book = epub(
      [
        { file: "one.xhtml", navTitle: "One", body: "<p>Open text.</p>" },
        { file: "two.xhtml", navTitle: "Two", body: "<p>Secret.</p>" },
      ],
      { encrypted: ["OEBPS/two.xhtml"] },
    );
    const result = readEpub("book.epub", book, {});
    expect(result.blocks.map((block) => block.headingPath)).toEqual([["One"]]);
    expect(result.warnings).toEqual(["1 chapter is encrypted (DRM) and was left out."]);
  });
});
