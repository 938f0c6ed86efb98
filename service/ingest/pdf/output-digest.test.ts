/**
 * Ingestion output is pinned byte for byte: the eval PDFs read through the worker pool (ranges split
 * over two workers) give the same extraction and the same passages, text and rects, as before any
 * speed-up. The digests were computed on main before the ingestion speed work (issue 15).
 */
import { createHash } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { buildPassages } from "../build-passages.ts";
import { createPdfExtractorPool } from "./pool.ts";
import { type EvalPdf, evalPdfPath, readBytes } from "./test-fixtures.ts";

const expected: Record<EvalPdf, { extraction: string; passages: string }> = {
  "debian-reference.en.pdf": {
    extraction: "e090f26130ec4bc2effba6e6491d9317033f9658a3ca84a6e4b737ce326d1e19",
    passages: "3157a05032b031d99486e10928bc52b60cde253bec4a854464f2f2183576d22c",
  },
  "developers-reference.pdf": {
    extraction: "a26e1acfcf883c2ec3b181b6f9b228eb16cdedbf9d03c5dbcbe63d3267a9b021",
    passages: "aff4ff539c4e09576c7a908e4ffe28f790bb398bb0f34763dda2e6814c9bc3b5",
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
