/**
 * Ingestion output is pinned byte for byte: the eval PDFs read through the worker pool (ranges split
 * over two workers) give the same extraction and the same passages, text and rects, as before any
 * speed-up. The digests were computed on main before the ingestion speed work (issue 15); `textAndRects`
 * is still that digest, of the extraction without the layout marks (`opens`) added for answer units.
 */
import { createHash } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { buildPassages } from "../build-passages.ts";
import { createPdfExtractorPool } from "./pool.ts";
import { type EvalPdf, evalPdfPath, readBytes } from "./test-fixtures.ts";

const expected: Record<EvalPdf, { extraction: string; textAndRects: string; passages: string }> = {
  "debian-reference.en.pdf": {
    extraction: "81ed0a09d5159b28977b8c5ab728f7813dc107ef4857fb943760b447ed813bd3",
    textAndRects: "e090f26130ec4bc2effba6e6491d9317033f9658a3ca84a6e4b737ce326d1e19",
    passages: "365d75aa5c2bc7bee2de5f11746cfbbc1ef5725d5a889b0912c6ecd594714269",
  },
  "developers-reference.pdf": {
    extraction: "eb8885393f771b113ca8970ced2f52c138531d1f5f6087e0bda61c05efafe029",
    textAndRects: "a26e1acfcf883c2ec3b181b6f9b228eb16cdedbf9d03c5dbcbe63d3267a9b021",
    passages: "7a89b5f5ebffedac8403a4acef1c841264bd633b25111dd8a30404c69d4f0478",
  },
  "gnuplot.pdf": {
    extraction: "6a5878cfaa469f2b34c37783cc4c847edb101e82c840cffd752a098d9e07736b",
    textAndRects: "ba9384d5f805418b7202ee0737da7f2aa4837c99d0eedc4c42fb6523f52e5d3c",
    passages: "ddaf466816147e6ec605012229a3a75943faf2753051fc1a31a7c38cf0bab0a5",
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
      const withoutLayout = {
        ...extraction,
        blocks: extraction.blocks.map((block) => ({
          ...block,
          sentences: block.sentences.map(({ opens: _opens, ...sentence }) => sentence),
        })),
      };
      expect({
        extraction: digest(extraction),
        textAndRects: digest(withoutLayout),
        passages: digest(passages),
      }).toEqual(expected[name]);
    },
    60_000,
  );
});
