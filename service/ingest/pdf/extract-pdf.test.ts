import path from "node:path";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PdfSpan } from "../../../sdk/core/wire.ts";
import type { PdfExtraction, SourceSentence } from "../types.ts";
import { extractPdf } from "./extract-pdf.ts";
import {
  type BboxWord,
  center,
  type EvalPdf,
  evalPdfPath,
  inRects,
  matchWords,
  misplaced,
  normalize,
  popplerWords,
  qpdf,
  readBytes,
  scratchFolder,
} from "./testing/pdf-fixtures.ts";

const documents: EvalPdf[] = ["debian-reference.en.pdf", "developers-reference.pdf", "gnuplot.pdf"];
const extractions = new Map<EvalPdf, PdfExtraction>();

beforeAll(async () => {
  for (const name of documents) {
    extractions.set(name, await extractPdf(await readBytes(evalPdfPath(name)), { ocr: false }));
  }
});

function extraction(name: EvalPdf): PdfExtraction {
  const found = extractions.get(name);
  if (found === undefined) throw new Error(`${name} was not extracted`);
  return found;
}

function sentencesOf(name: EvalPdf): SourceSentence[] {
  return extraction(name).blocks.flatMap((block) => block.sentences);
}

/** Every n-th sentence of some length on one page, from the body of the document (text unique on its page). */
function sample(name: EvalPdf, count: number): SourceSentence[] {
  const all = sentencesOf(name);
  const seen = new Map<string, number>();
  for (const sentence of all) {
    const key = `${sentence.spans?.[0]?.page_index}|${sentence.text}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  const eligible = all.filter(
    (sentence) =>
      sentence.spans?.length === 1 &&
      (sentence.spans[0]?.page_index ?? 0) >= 20 &&
      sentence.text.split(" ").length >= 6 &&
      seen.get(`${sentence.spans[0]?.page_index}|${sentence.text}`) === 1,
  );
  return Array.from(
    { length: count },
    (_, index) => eligible[Math.floor(((index + 0.5) * eligible.length) / count)],
  ).filter((sentence): sentence is SourceSentence => sentence !== undefined);
}

describe("extractPdf on the eval PDFs", () => {
  it("places each sampled sentence's rectangles on its own words (poppler word boxes as reference)", async () => {
    const sampled = [
      ...sample("debian-reference.en.pdf", 7).map((sentence) => ({
        name: "debian-reference.en.pdf" as const,
        sentence,
      })),
      ...sample("developers-reference.pdf", 6).map((sentence) => ({
        name: "developers-reference.pdf" as const,
        sentence,
      })),
      ...sample("gnuplot.pdf", 7).map((sentence) => ({ name: "gnuplot.pdf" as const, sentence })),
    ];
    expect(sampled).toHaveLength(20);
    let wordsInRects = 0;
    let ownWordsInRects = 0;
    let matchedWords = 0;
    let matchedInside = 0;
    let edgesChecked = 0;
    for (const { name, sentence } of sampled) {
      const spans = sentence.spans ?? [];
      const words = await popplerWords(evalPdfPath(name), spans[0]?.page_index ?? 0);
      const { tokens, matched } = matchWords(sentence.text, words);
      const context = `${name} p.${spans[0]?.page_index}: "${sentence.text}"`;
      expect(matched.length / tokens, context).toBeGreaterThanOrEqual(0.8);
      expect(misplaced(matched, words, spans), context).toEqual([]);
      // Where a sentence starts or ends mid-line, its rect edge is interpolated inside a text run.
      const [firstWord, lastWord] = [matched[0], matched.at(-1)];
      const [firstRect, lastRect] = [spans[0]?.rects[0], spans.at(-1)?.rects.at(-1)];
      const startsWithWord = /^[\p{L}\p{N}]/u.test(sentence.text);
      if (firstWord && firstRect && startsWithWord && sentence.text.startsWith(firstWord.text.slice(0, 3))) {
        expect(Math.abs(firstRect[0] - firstWord.x0), context).toBeLessThanOrEqual(5);
      }
      if (lastWord && lastRect && sentence.text.endsWith(lastWord.text)) {
        expect(Math.abs(lastRect[2] - lastWord.x1), context).toBeLessThanOrEqual(5);
        edgesChecked++;
      }
      matchedWords += matched.length;
      matchedInside += matched.filter((word) => inRects(center(word), spans, 2)).length;
      const own = new Set(matched);
      const sentenceTokens = new Set(sentence.text.split(/\s+/).map(normalize));
      for (const word of words) {
        if (!inRects(center(word), spans, 0)) continue;
        wordsInRects++;
        if (own.has(word) || sentenceTokens.has(normalize(word.text))) ownWordsInRects++;
      }
    }
    expect(ownWordsInRects / wordsInRects).toBeGreaterThanOrEqual(0.9);
    // Without excusing repeated words: the in-order matches themselves are inside.
    expect(matchedInside / matchedWords).toBeGreaterThanOrEqual(0.97);
    expect(edgesChecked).toBeGreaterThanOrEqual(10);
  }, 60_000);

  it("gives a sentence that runs over a page break one span per page", () => {
    const crossing = sentencesOf("developers-reference.pdf").filter(
      (sentence) => sentence.spans?.length === 2,
    );
    expect(crossing.length).toBeGreaterThan(0);
    for (const sentence of crossing) {
      const [first, second] = sentence.spans as [PdfSpan, PdfSpan];
      expect(second.page_index).toBe(first.page_index + 1);
      // It ends the text of one page and starts the text of the next.
      expect(first.rects.at(-1)?.[1]).toBeGreaterThan(first.page_height / 2);
      expect(second.rects[0]?.[1]).toBeLessThan(second.page_height / 2);
    }
  });

  it("joins words hyphenated at a line end and keeps real hyphens", () => {
    const texts = sentencesOf("debian-reference.en.pdf").map((sentence) => sentence.text);
    expect(texts.some((text) => text.includes("Python regular expressions offered by the re module"))).toBe(
      true,
    );
    expect(texts.some((text) => text.includes("expres- sions"))).toBe(false);
    expect(texts.some((text) => /\bUnix-like\b/.test(text))).toBe(true);
  });

  it("drops running headers, footers and page numbers", () => {
    const debian = sentencesOf("debian-reference.en.pdf");
    const onBodyPages = debian.filter((sentence) => (sentence.spans?.[0]?.page_index ?? 0) >= 28);
    expect(onBodyPages.filter((sentence) => /^\d+ \/ 233$|^Debian Reference$/.test(sentence.text))).toEqual(
      [],
    );
    const inHeaderBand = debian.filter((sentence) =>
      sentence.spans?.some((span) => span.page_index >= 28 && span.rects.some((rect) => rect[3] < 50)),
    );
    expect(inHeaderBand.map((sentence) => sentence.text)).toEqual([]);
    expect(sentencesOf("gnuplot.pdf").filter((sentence) => sentence.text === "gnuplot 5.4")).toEqual([]);
    const developer = sentencesOf("developers-reference.pdf").map((sentence) => sentence.text);
    expect(developer.filter((text) => text.startsWith("Debian Developer’s Reference, Release"))).toEqual([]);
  });

  it("carries section headings on the blocks that follow them", () => {
    for (const name of documents) {
      const blocks = extraction(name).blocks;
      const withHeading = blocks.filter((block) => block.headingPath.length > 0);
      expect(withHeading.length / blocks.length, name).toBeGreaterThan(0.95);
    }
    const paths = (name: EvalPdf): string[] =>
      extraction(name).blocks.map((block) => block.headingPath.join(" > "));
    expect(paths("debian-reference.en.pdf")).toContain(
      "Chapter 1 GNU/Linux tutorials > 1.6 Unix-like text processing > 1.6.2 Regular expressions",
    );
    expect(
      paths("developers-reference.pdf").some((text) =>
        text.endsWith("4.6 The Debian archive > 4.6.2 Architectures"),
      ),
    ).toBe(true);
    expect(paths("gnuplot.pdf")).toContain("Part I Gnuplot > Demos and Online Examples");
  });

  it("labels each span with the page's printed label where the PDF defines page labels, and only there", () => {
    const labelsByPage = (name: EvalPdf) => {
      const labels = new Map<number, string | undefined>();
      for (const block of extraction(name).blocks) {
        for (const sentence of block.sentences) {
          for (const span of sentence.spans ?? []) labels.set(span.page_index, span.page_label);
        }
      }
      return labels;
    };
    const developers = labelsByPage("developers-reference.pdf");
    // Two title pages, six of front matter in roman numerals (its table of contents has no spans), then the body from 1.
    expect(developers.get(0)).toBe("1");
    expect(developers.get(10)).toBe("3");
    expect(developers.get(19)).toBe("12");
    expect([...labelsByPage("gnuplot.pdf").values()].every((label) => label === undefined)).toBe(true);
  });

  it("reports page sizes, text counts, title and the page without text", () => {
    const debian = extraction("debian-reference.en.pdf");
    expect(debian.pageCount).toBe(261);
    expect(debian.title).toBe("Debian Reference");
    expect(debian.pages[40]).toMatchObject({
      index: 40,
      width: 595.28,
      height: 841.89,
      ocr: false,
      searchable: true,
    });
    const blank = debian.pages.filter((page) => page.textChars === 0);
    expect(blank.map((page) => page.searchable)).toEqual(blank.map(() => false));
    expect(debian.warnings.join(" ")).toMatch(/no text and OCR is turned off/);
  });
});

describe("extractPdf geometry", () => {
  let scratch: Awaited<ReturnType<typeof scratchFolder>>;
  beforeAll(async () => {
    scratch = await scratchFolder();
  });
  afterAll(async () => {
    await scratch.remove();
  });

  it("gives rectangles in the displayed space of a rotated page", async () => {
    const single = path.join(scratch.folder, "single.pdf");
    const rotated = path.join(scratch.folder, "rotated.pdf");
    await qpdf(["--empty", "--pages", evalPdfPath("gnuplot.pdf"), "31", "--", single]);
    await qpdf(["--rotate=+90:1", single, rotated]);
    const upright = await extractPdf(await readBytes(single), { ocr: false });
    const turned = await extractPdf(await readBytes(rotated), { ocr: false });
    const [page] = upright.pages;
    expect(turned.pages[0]).toMatchObject({ width: page?.height, height: page?.width });
    // Poppler's -bbox does not rotate its boxes, so its upright words are turned a quarter clockwise:
    // (x, y) on the upright page is (height − y, x) on the displayed page.
    const height = page?.height ?? 0;
    const turn = (word: BboxWord): BboxWord => ({
      text: word.text,
      x0: height - word.y1,
      y0: word.x0,
      x1: height - word.y0,
      y1: word.x1,
    });
    const uprightWords = await popplerWords(single, 0);
    const sentences = turned.blocks
      .flatMap((block) => block.sentences)
      .filter((s) => s.text.split(" ").length >= 4);
    expect(sentences.length).toBeGreaterThan(10);
    for (const sentence of sentences) {
      const { tokens, matched } = matchWords(sentence.text, uprightWords);
      expect(matched.length / tokens, sentence.text).toBeGreaterThanOrEqual(0.8);
      expect(
        misplaced(matched.map(turn), uprightWords.map(turn), sentence.spans ?? []),
        sentence.text,
      ).toEqual([]);
    }
  }, 60_000);
});

describe("extractPdf headings of a manual with front matter", () => {
  /** A manual set by a typical template: front-matter headings and numbered chapters at one size. */
  async function manual(): Promise<Uint8Array> {
    const document = await PDFDocument.create();
    const font = await document.embedFont(StandardFonts.Helvetica);
    const sections: Array<[string, string[]]> = [
      ["Preface", ["This manual explains how to run the backup service on a small network of machines."]],
      ["1 Introduction", ["The service copies every file to two disks and keeps a week of versions."]],
      ["1.1 Requirements", ["Each machine needs a second disk of at least the size of the first one."]],
      ["2 Restoring files", ["A file is restored from the newest version unless an older one is named."]],
    ];
    for (const [heading, body] of sections) {
      const page = document.addPage([595, 842]);
      const size = heading.includes(".") ? 14 : 18;
      page.drawText(heading, { x: 72, y: 760, size, font });
      for (const [index, line] of body.entries()) {
        page.drawText(line, { x: 72, y: 720 - index * 14, size: 10, font });
      }
    }
    return document.save();
  }

  it("keeps a chapter that has a number beside, not under, a front-matter heading at its size", async () => {
    const extraction = await extractPdf(await manual(), { ocr: false });
    const pathOf = (start: string) =>
      extraction.blocks.find((block) => block.sentences[0]?.text.startsWith(start))?.headingPath;
    expect(pathOf("This manual explains")).toEqual(["Preface"]);
    expect(pathOf("The service copies")).toEqual(["1 Introduction"]);
    expect(pathOf("Each machine needs")).toEqual(["1 Introduction", "1.1 Requirements"]);
    expect(pathOf("A file is restored")).toEqual(["2 Restoring files"]);
  });
});
