import { describe, expect, it } from "vitest";
import { type RetrievalResult, referenceSchema } from "@/sdk/core/wire.ts";
import { passageEvidence } from "./passage-evidence.ts";

const pdfPassage: RetrievalResult = {
  id_element: "psg_Passage001",
  id_datasource: "ds_Manuals001",
  content: "An upload to the delayed directory keeps the package in the deferred uploads queue.",
  rank: 1,
  metadata: {
    kind: "pdf_highlight",
    title: "debian-uploads-and-bugs.pdf",
    file_name: "debian-uploads-and-bugs.pdf",
    id_document: "doc_Document01",
    heading: "5.6.3 Delayed uploads",
    score: 4.2,
    page_index: 0,
    page_label: "34",
    page_indices: [0],
    page_width: 612,
    page_height: 792,
    rects: [
      [72, 300, 540, 312],
      [72, 314, 320, 326],
    ],
    pdf: { token: "tok.sig", expires_at: "2026-11-28T07:00:00.000Z" },
  },
};

describe("a search result opened as evidence", () => {
  it("is a PDF passage's page, its lines marked, when rag gave it a token for the user", () => {
    const reference = passageEvidence(pdfPassage);
    expect(referenceSchema.parse(reference)).toMatchObject({
      kind: "pdf_highlight",
      page_index: 0,
      page_label: "34",
      bbox: [72, 300, 540, 326],
      spans: [{ page_index: 0, page_label: "34", rects: pdfPassage.metadata.rects }],
      pdf: pdfPassage.metadata.pdf,
    });
  });

  it("is the passage's text under its heading and pages when there is no token", () => {
    const { pdf: _token, ...metadata } = pdfPassage.metadata;
    const reference = passageEvidence({ ...pdfPassage, metadata });
    expect(referenceSchema.parse(reference)).toMatchObject({
      kind: "paragraph",
      quote: pdfPassage.content,
      metadata: { heading: "5.6.3 Delayed uploads · p. 34 · page 1 of the file" },
    });
  });

  it("keeps each passage's own reference id, so two searches never share a cached page", () => {
    const other = { ...pdfPassage, id_element: "psg_Passage002" };
    expect(passageEvidence(other).id).not.toBe(passageEvidence(pdfPassage).id);
  });

  it("opens an image found for the user as the image, its lines marked", () => {
    const scan: RetrievalResult = {
      id_element: "psg_Scan0001",
      id_datasource: "ds_Manuals001",
      content: "The boiler room key hangs behind the blue cabinet.",
      rank: 1,
      metadata: {
        kind: "image",
        title: "facilities-scan.png",
        file_name: "facilities-scan.png",
        id_document: "doc_Scan0001",
        heading: null,
        score: 3.1,
        rects: [[83, 92, 700, 118]],
        image_width: 1275,
        image_height: 1650,
        image: { token: "img.sig", expires_at: "2026-11-28T07:00:00.000Z" },
      },
    };
    const reference = referenceSchema.parse(passageEvidence(scan));
    expect(reference).toMatchObject({
      kind: "image",
      quote: scan.content,
      region: {
        rects: [[83, 92, 700, 118]],
        bbox: [83, 92, 700, 118],
        image_width: 1275,
        image_height: 1650,
      },
      image: { token: "img.sig" },
    });

    const { image: _withoutToken, ...metadata } = scan.metadata;
    expect(passageEvidence({ ...scan, metadata }).kind, "without a token, as its text").toBe("paragraph");
  });
});
