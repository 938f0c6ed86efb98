import { describe, expect, it } from "vitest";
import { readFixture } from "./fixtures/fixture-streams.ts";
import { boundingRect, PdfSliceError, pdfLocation, scaleRect } from "./pdf-location.ts";
import { reduceAnswerText } from "./read-answers.ts";
import type { PdfHighlightReference, Reference } from "./schemas/reference.ts";

const answer = reduceAnswerText(readFixture("answer-stream.ndjson"));
const onPage22 = answer.references.ref_7Hq2mX9pLc as PdfHighlightReference;
const acrossPages3And4 = answer.references.ref_Bz4nT8wKe1 as PdfHighlightReference;
const onFirstPage = answer.references.ref_Qm5vR2sYd8 as PdfHighlightReference;

describe("pdfLocation", () => {
  it("gives the token, page and highlight of a PDF reference", () => {
    expect(pdfLocation(onPage22)).toEqual({
      token: onPage22.pdf.token,
      expiresAt: "2026-03-14T10:20:00Z",
      pageIndex: 22,
      rects: onPage22.rects,
      pageWidth: 612,
      pageHeight: 792,
      spans: [{ pageIndex: 22, rects: onPage22.rects, pageWidth: 612, pageHeight: 792 }],
    });
  });

  it("places the cited page in a slice at the document start, middle and end", () => {
    expect(pdfLocation(onFirstPage, 0)?.pageInSlice).toBe(0);
    expect(pdfLocation(onPage22, 21)?.pageInSlice).toBe(1);
    expect(pdfLocation({ ...onPage22, page_index: 29 }, 27)?.pageInSlice).toBe(2);
  });

  it("places every page of a quote that crosses a page break", () => {
    const spans = pdfLocation(acrossPages3And4, 2)?.spans;

    expect(spans?.map((span) => [span.pageIndex, span.pageInSlice])).toEqual([
      [3, 1],
      [4, 2],
    ]);
    expect(pdfLocation(acrossPages3And4, 3)?.spans[1]?.pageInSlice).toBe(1);
  });

  it("leaves out pageInSlice for a span page outside the slice", () => {
    const spans = pdfLocation({ ...acrossPages3And4, page_index: 4 }, 2)?.spans;

    expect(spans?.[0]?.pageInSlice).toBe(1);
    expect(pdfLocation(acrossPages3And4, 1)?.spans[1]).not.toHaveProperty("pageInSlice");
  });

  it("throws when the slice does not hold the cited page", () => {
    expect(() => pdfLocation(onPage22, 23)).toThrow(PdfSliceError);
    expect(() => pdfLocation(onPage22, 19)).toThrow(/page 22 is not in the 3-page slice starting at page 19/);
  });

  it("returns null for references that are not PDF highlights", () => {
    const paragraph: Reference = {
      id: "ref_Pa4aGr4ph1",
      kind: "paragraph",
      id_datasource: "ds_Kx8fP2nQ4m",
      id_document: "doc_N0tes0001",
      title: "Notes",
      quote: "A passage.",
      url: null,
      metadata: {},
    };

    expect(pdfLocation(paragraph)).toBeNull();
    expect(pdfLocation(paragraph, 0)).toBeNull();
  });
});

describe("scaleRect", () => {
  it("turns PDF points into CSS pixels for the rendered width", () => {
    expect(scaleRect([72, 100, 540, 114], 612, 918)).toEqual({ left: 108, top: 150, width: 702, height: 21 });
    expect(scaleRect([0, 0, 612, 792], 612, 306)).toEqual({ left: 0, top: 0, width: 306, height: 396 });
  });

  it("accepts corners in either order", () => {
    expect(scaleRect([540, 114, 72, 100], 612, 918)).toEqual({ left: 108, top: 150, width: 702, height: 21 });
  });

  it("refuses a page without width", () => {
    expect(() => scaleRect([0, 0, 1, 1], 0, 800)).toThrow(RangeError);
  });
});

describe("boundingRect", () => {
  it("holds every line of a quote, and refuses to bound nothing", () => {
    expect(
      boundingRect([
        [72, 300, 540, 312],
        [60, 314, 320, 326],
      ]),
    ).toEqual([60, 300, 540, 326]);
    expect(() => boundingRect([])).toThrow(RangeError);
  });
});
