/** A ranked passage as the wire's `rag` result (CONTRACT: retrieval result metadata). */
import type { RetrievalResult } from "../../sdk/core/wire.ts";
import type { PassageWithSource } from "../domain.ts";

export function toRetrievalResult(passage: PassageWithSource, score: number, rank: number): RetrievalResult {
  const spans = passage.sentences.flatMap((sentence) => sentence.spans ?? []);
  const first = spans[0];
  const evidence = passage.evidence;
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
      ...("url" in evidence ? { url: evidence.url } : {}),
      ...("startS" in evidence ? { start_s: evidence.startS, end_s: evidence.endS } : {}),
    },
  };
}
