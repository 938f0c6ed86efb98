/** A cited sentence span of a passage: its durable id and, for a PDF, the token that serves its pages. */
import type { PdfToken } from "../../sdk/core/wire.ts";
import type { PassageWithSource } from "../domain.ts";
import { durableId } from "../ids.ts";
import type { PdfTokens } from "../pdf-slices/pdf-token.ts";

export interface CitedSpan {
  passage: PassageWithSource;
  /** Index of the first and last cited sentence in the passage. */
  first: number;
  last: number;
}

/** What an answer cites: the span, its id, and the token that serves its PDF pages or its OCR'd image. */
export interface Citation extends CitedSpan {
  id: string;
  pdf: PdfToken | null;
  image: PdfToken | null;
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

/** The pages the cited sentences lie on, in page order. */
function citedPages(span: CitedSpan): number[] {
  const sentences = span.passage.sentences.slice(span.first, span.last + 1);
  const pages = sentences.flatMap((sentence) => (sentence.spans ?? []).map((item) => item.page_index));
  return [...new Set(pages)].sort((a, b) => a - b);
}

/** Whether an OCR'd image's cited sentences have boxes to show: what its region is drawn from. */
function hasRegion(span: CitedSpan): boolean {
  const sentences = span.passage.sentences.slice(span.first, span.last + 1);
  const boxed = sentences.some((sentence) => (sentence.spans ?? []).some((item) => item.rects.length > 0));
  return boxed && sentences[0]?.spans?.[0] !== undefined;
}

export function cite(span: CitedSpan, context: TokenContext): Citation {
  const id = referenceId(span);
  const { evidence } = span.passage;
  if (evidence.kind === "image" && evidence.ocr === true && hasRegion(span)) {
    const image = context.tokens.issue({
      media: "image",
      assistant: span.passage.assistantId,
      reference: id,
      document: span.passage.documentId,
      pages: [0],
      user: context.user,
      session: context.session,
    });
    return { ...span, id, pdf: null, image };
  }
  if (evidence.kind !== "pdf_highlight") return { ...span, id, pdf: null, image: null };
  const pages = citedPages(span);
  if (pages.length === 0) throw new Error(`passage ${span.passage.id} has a PDF sentence without positions`);
  const pdf = context.tokens.issue({
    assistant: span.passage.assistantId,
    reference: id,
    document: span.passage.documentId,
    pages,
    user: context.user,
    session: context.session,
  });
  return { ...span, id, pdf, image: null };
}
