/**
 * Ingestion output is pinned byte for byte: the eval PDFs read through the worker pool (ranges split
 * over two workers) give the same extraction and the same passages, text and rects, as before any
 * speed-up. The digests were computed on main before the ingestion speed work (issue 15), and again when
 * spans got their printed page labels (the two PDFs that define labels; without them, the digests were
 * the earlier ones).
 */
import { createHash } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { buildPassages } from "../build-passages.ts";
import { createPdfExtractorPool } from "./pool.ts";
import { type EvalPdf, evalPdfPath, readBytes } from "./testing/pdf-fixtures.ts";

const expected: Record<EvalPdf, { extraction: string; passages: string }> = {
  "debian-reference.en.pdf": {
    extraction: "e35c0f3d00ea9e43b631ef6c5b4626cd2ca00dc86e62ad6cccb539f69effecf4",
    passages: "53228580a1eeae1933cf67881631deca0108acb7374393196f8ba10a404882e4",
  },
  "developers-reference.pdf": {
    extraction: "d09bbd09448c8fc708d639f16eb5dfc24978a9dc83ed7e61c786c7db3c7257cc",
    passages: "5a56afe7d7ded6054a842338125cbc10830b7eba5fa6a5df54f0b9e4bc18ce82",
  },
  "gnuplot.pdf": {
    extraction: "ba9384d5f805418b7202ee0737da7f2aa4837c99d0eedc4c42fb6523f52e5d3c",
    passages: "f93658e19e8bed9790ae1d90e6d2938547ef6f43d7140d840c533b6752580ef9",
  },
};

const digest = (value: unknown): string => createHash("sha256").update(JSON.stringify(value)).digest("hex");

const pool = createPdfExtractorPool({ size: 2 });
afterAll(() => pool.close());

describe("reading the eval PDFs", () => {
  it.each(Object.keys(expected) as EvalPdf[])(
    "%s gives the same extraction and passages as before",
    async (name) => {
      const extraction = await pool.extract(await readBytes(evalPdfPath(name)), { ocr: false });
      const passages = buildPassages(extraction.blocks, {
        assistantId: "asst_digest",
        datasourceId: "ds_digest",
        documentId: "doc_digest",
        sha256: "digest",
        title: extraction.title ?? name,
      });
      expect({ extraction: digest(extraction), passages: digest(passages) }).toEqual(expected[name]);
    },
    60_000,
  );
});
