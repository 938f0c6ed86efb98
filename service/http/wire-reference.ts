/** A citation as the wire's Reference (CONTRACT: reference kinds), built once, where the answer leaves. */
import { boundingRect } from "../../sdk/core/index.ts";
import type { PdfSpan, Reference, TextContext } from "../../sdk/core/wire.ts";
import type { Citation, CitedSpan } from "../answer/references.ts";
import type { StoredSentence } from "../domain.ts";

/** Spans of consecutive sentences merged per page, in page order. */
function mergeSpans(sentences: readonly StoredSentence[]): PdfSpan[] {
  const byPage = new Map<number, PdfSpan>();
  for (const sentence of sentences) {
    for (const span of sentence.spans ?? []) {
      const existing = byPage.get(span.page_index);
      if (existing) existing.rects.push(...span.rects);
      else byPage.set(span.page_index, { ...span, rects: [...span.rects] });
    }
  }
  return [...byPage.values()].sort((a, b) => a.page_index - b.page_index);
}

/** Neighbours shown around a quote: a few sentences of prose, more lines of code. */
const contextSize = { prose: 3, code: 8 } as const;

function textContext(span: CitedSpan, code: true | undefined): TextContext {
  const texts = span.passage.sentences.map((sentence) => sentence.text);
  const size = code ? contextSize.code : contextSize.prose;
  return {
    before: texts.slice(Math.max(0, span.first - size), span.first),
    cited: texts.slice(span.first, span.last + 1),
    after: texts.slice(span.last + 1, span.last + 1 + size),
    code: code === true,
  };
}

export function wireReference(citation: Citation): Reference {
  const { passage, id } = citation;
  const sentences = passage.sentences.slice(citation.first, citation.last + 1);
  const base = {
    id,
    id_datasource: passage.datasourceId,
    id_document: passage.documentId,
    title: passage.fileName,
    quote: sentences.map((sentence) => sentence.text).join(" "),
    url: null as string | null,
    metadata: { heading: passage.heading || null, document_title: passage.title, id_passage: passage.id },
  };
  const evidence = passage.evidence;
  switch (evidence.kind) {
    case "pdf_highlight": {
      const spans = mergeSpans(sentences);
      const first = spans[0];
      if (!first || !citation.pdf) throw new Error(`citation ${id} of a PDF has no pages or no token`);
      return {
        ...base,
        kind: "pdf_highlight",
        page_index: first.page_index,
        page_label: first.page_label ?? null,
        rects: first.rects,
        bbox: boundingRect(first.rects),
        page_width: first.page_width,
        page_height: first.page_height,
        spans,
        pdf: citation.pdf,
      };
    }
    case "table":
      return {
        ...base,
        kind: "table",
        columns: evidence.columns,
        rows: evidence.rows,
        chart_hint: evidence.chartHint,
      };
    case "transcript_snippet":
      return { ...base, kind: "transcript_snippet", start_s: evidence.startS, end_s: evidence.endS };
    case "video_interval":
      return {
        ...base,
        kind: "video_interval",
        url: evidence.url,
        start_s: evidence.startS,
        end_s: evidence.endS,
      };
    case "external_link":
      return {
        ...base,
        kind: "external_link",
        url: evidence.url,
        context: textContext(citation, evidence.code),
      };
    case "image": {
      const rects = mergeSpans(sentences).flatMap((item) => item.rects);
      const picture = sentences[0]?.spans?.[0];
      if (citation.image === null || picture === undefined || rects.length === 0)
        return { ...base, kind: "image", url: evidence.url };
      return {
        ...base,
        kind: "image",
        region: {
          rects,
          bbox: boundingRect(rects),
          image_width: picture.page_width,
          image_height: picture.page_height,
        },
        image: citation.image,
      };
    }
    case "catalogue_record":
      return { ...base, kind: "catalogue_record", metadata: { ...base.metadata, record: evidence.record } };
    case "paragraph":
      return { ...base, kind: "paragraph", context: textContext(citation, evidence.code) };
  }
}
