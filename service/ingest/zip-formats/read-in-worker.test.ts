/** A zipped document read on its own thread gives the same blocks, and the same reasons, as one read inline. */
import { describe, expect, it } from "vitest";
import { SourceReadError } from "../types.ts";
import { isZipFormat, readZipFormatInWorker } from "./read-in-worker.ts";
import { docx, wordParagraph } from "./testing/build-documents.ts";

describe("readZipFormatInWorker", () => {
  it("returns the blocks with their heading paths", async () => {
    const bytes = docx(wordParagraph("Vault", "Heading1") + wordParagraph("The vault opens on Mondays."));
    const extraction = await readZipFormatInWorker("handbook.docx", bytes);
    expect(extraction.blocks.map((block) => [block.headingPath, block.sentences[0]?.text])).toEqual([
      [["Vault"], "The vault opens on Mondays."],
    ]);
  });

  it("rejects with the reader's reason as a SourceReadError", async () => {
    const failure = readZipFormatInWorker("handbook.docx", new TextEncoder().encode("not a zip"));
    await expect(failure).rejects.toBeInstanceOf(SourceReadError);
    await expect(failure).rejects.toThrow("This is not a Word document: the file is not a ZIP package");
  });

  it("stops a reading that takes longer than its limit, with a reason, and ends the thread", async () => {
    const bytes = docx(wordParagraph("The vault opens on Mondays."));
    const failure = readZipFormatInWorker("handbook.docx", bytes, { timeoutMs: 1 });
    await expect(failure).rejects.toBeInstanceOf(SourceReadError);
    await expect(failure).rejects.toThrow("Reading the file took longer than 0 s, so it was stopped");
  });

  it("knows the zipped kinds by extension", () => {
    expect(["a.DOCX", "b.pptx", "dir/c.xlsx", "d.ods", "e.epub"].every(isZipFormat)).toBe(true);
    expect(["a.doc", "docx", "a.docx.txt", "a.pdf"].some(isZipFormat)).toBe(false);
  });
});
