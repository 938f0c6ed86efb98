/** A ranked passage as `rag` returns it (CONTRACT: retrieval result metadata). */
import type { RetrievalResult } from "../../sdk/core/index.ts";
import type { PassageWithSource } from "../domain.ts";

export function toRetrievalResult(passage: PassageWithSource, score: number, rank: number): RetrievalResult {
  const spans = passage.sentences.flatMap((sentence) => sentence.spans ?? []);
  const evidence = passage.evidence;
  const first = evidence.kind === "pdf_highlight" ? spans[0] : undefined;
  // An OCR'd image's spans are its one picture, in pixels.
  const picture = evidence.kind === "image" ? spans[0] : undefined;
  return {
    id_element: passage.id,
    id_datasource: passage.datasourceId,
    content: passage.text,
    rank,
    metadata: {
      kind: passage.kind,
      title: passage.title,
      file_name: passage.fileName,
      id_document: passage.documentId,
      heading: passage.heading || null,
      score: Math.round(score * 1e4) / 1e4,
      ...(first
        ? {
            page_index: first.page_index,
            page_label: first.page_label ?? null,
            page_indices: [...new Set(spans.map((span) => span.page_index))].sort((a, b) => a - b),
            page_width: first.page_width,
            page_height: first.page_height,
            rects: spans.filter((span) => span.page_index === first.page_index).flatMap((span) => span.rects),
          }
        : {}),
      ...(picture
        ? {
            image_width: picture.page_width,
            image_height: picture.page_height,
            rects: spans.flatMap((span) => span.rects),
          }
        : {}),
      ...("url" in evidence ? { url: evidence.url } : {}),
      ...("startS" in evidence ? { start_s: evidence.startS, end_s: evidence.endS } : {}),
    },
  };
}
