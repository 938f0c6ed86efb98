/** Turns a cited sentence span of a passage into a wire Reference with a durable id and, for PDFs, a token. */
import { boundingRect, type PdfSpan, type Reference, type TextContext } from "../../sdk/core/index.ts";
import type { PassageWithSource, StoredSentence } from "../domain.ts";
import { durableId } from "../ids.ts";
import type { PdfTokens } from "../pdf/pdf-token.ts";

export interface CitedSpan {
  passage: PassageWithSource;
  /** Index of the first and last cited sentence in the passage. */
  first: number;
  last: number;
}

export interface TokenContext {
  tokens: PdfTokens;
  user: string;
  session: string;
}

/** The same passage span always gets the same id within an assistant (CONTRACT: durable reference ids). */
export function referenceId(span: CitedSpan): string {
  return durableId("ref", span.passage.assistantId, span.passage.id, span.first, span.last);
}

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

export function buildReference(span: CitedSpan, context: TokenContext): Reference {
  const { passage } = span;
  const sentences = passage.sentences.slice(span.first, span.last + 1);
  const id = referenceId(span);
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
      if (!first) throw new Error(`passage ${passage.id} has a PDF sentence without positions`);
      const pdf = context.tokens.issue({
        assistant: passage.assistantId,
        reference: id,
        document: passage.documentId,
        pages: spans.map((item) => item.page_index),
        user: context.user,
        session: context.session,
      });
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
        pdf,
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
      return { ...base, kind: "external_link", url: evidence.url, context: textContext(span, evidence.code) };
    case "image": {
      const rects = mergeSpans(sentences).flatMap((item) => item.rects);
      const picture = sentences[0]?.spans?.[0];
      if (evidence.ocr !== true || picture === undefined || rects.length === 0)
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
        image: context.tokens.issue({
          media: "image",
          assistant: passage.assistantId,
          reference: id,
          document: passage.documentId,
          pages: [0],
          user: context.user,
          session: context.session,
        }),
      };
    }
    case "catalogue_record":
      return { ...base, kind: "catalogue_record", metadata: { ...base.metadata, record: evidence.record } };
    case "paragraph":
      return { ...base, kind: "paragraph", context: textContext(span, evidence.code) };
  }
}
