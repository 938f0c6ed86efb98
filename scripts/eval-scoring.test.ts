import { describe, expect, it } from "vitest";
import { type Reference, referenceSchema } from "../sdk/core/wire.ts";
import { parseQaSet } from "./eval-qa-set.ts";
import { isCitationHit } from "./eval-scoring.ts";

const common = {
  id: "ref_000000000001",
  id_datasource: "ds_000000000001",
  id_document: "doc_000000000001",
  url: null,
  metadata: {},
};
const paragraph = (title: string, quote: string): Reference =>
  referenceSchema.parse({ ...common, kind: "paragraph", title, quote });
const onPdfPage = (pageIndex: number, quote: string): Reference =>
  referenceSchema.parse({
    ...common,
    kind: "pdf_highlight",
    title: "manual.pdf",
    quote,
    page_index: pageIndex,
    rects: [[0, 0, 1, 1]],
    bbox: [0, 0, 1, 1],
    page_width: 100,
    page_height: 100,
    spans: [{ page_index: pageIndex, rects: [[0, 0, 1, 1]], page_width: 100, page_height: 100 }],
    pdf: { token: "t", expires_at: "2026-01-01T00:00:00.000Z" },
  });

const [markdownItem, pdfItem] = parseQaSet(
  [
    '{"id": "q1", "type": "answerable", "question": "How do I join the pieces?", "doc": "backups.md", "answer_contains": ["cat x* > archive.tar"]}',
    '{"id": "q2", "type": "answerable", "question": "How long may an upload wait?", "doc": "manual.pdf", "pages": [3], "answer_contains": ["between 0 and 15"]}',
  ].join("\n"),
  "mine.jsonl",
);

describe("a citation hit", () => {
  it("in a file without pages is a quote of the named file holding an answer string", () => {
    expect(
      isCitationHit(paragraph("backups.md", "join them with cat x* > archive.tar."), markdownItem!),
    ).toBe(true);
    expect(isCitationHit(paragraph("notes.md", "join them with cat x* > archive.tar."), markdownItem!)).toBe(
      false,
    );
    expect(isCitationHit(paragraph("backups.md", "keep a copy elsewhere"), markdownItem!)).toBe(false);
  });

  it("in a PDF is on one of the item's 1-based pages", () => {
    expect(isCitationHit(onPdfPage(2, "X between 0 and 15"), pdfItem!)).toBe(true);
    expect(isCitationHit(onPdfPage(3, "X between 0 and 15"), pdfItem!)).toBe(false);
  });
});
