/** A search result as the evidence panel shows it: a PDF passage as its page, anything else as its text. */
import { boundingRect } from "@/sdk/core/index.ts";
import type { ImageReference, PdfHighlightReference, Reference, RetrievalResult } from "@/sdk/core/wire.ts";
import { pageRangeLabel } from "@/sdk/react/index.ts";

/** The pages a passage covers; rag gives the printed label of the first page only. */
export function resultPages(metadata: RetrievalResult["metadata"]): string {
  const first = { page_index: metadata.page_index ?? 0, page_label: metadata.page_label };
  return pageRangeLabel(first, { page_index: metadata.page_indices?.at(-1) ?? first.page_index });
}

/**
 * A PDF passage that rag found for the user (it then carries a token for its pages) opens as its page,
 * the passage's lines on its first page marked; an image read by OCR, found for the user, as the image
 * with its lines marked; any other passage as its text, under its heading.
 */
export function passageEvidence(result: RetrievalResult): Reference {
  const { metadata } = result;
  const base = {
    // A reference id is letters and digits after "ref_"; the passage's own id keeps it apart from other passages'.
    id: `ref_${result.id_element.replace(/[^A-Za-z0-9]/g, "")}`,
    id_datasource: result.id_datasource,
    id_document: metadata.id_document,
    title: metadata.title,
    quote: result.content,
    url: null,
  };
  const { pdf, page_index, page_width, page_height, rects } = metadata;
  if (pdf && page_index !== undefined && page_width && page_height && rects && rects.length > 0) {
    const reference: PdfHighlightReference = {
      ...base,
      kind: "pdf_highlight",
      metadata: { heading: metadata.heading },
      page_index,
      page_label: metadata.page_label ?? null,
      rects,
      bbox: boundingRect(rects),
      page_width,
      page_height,
      spans: [
        {
          page_index,
          ...(metadata.page_label ? { page_label: metadata.page_label } : {}),
          rects,
          page_width,
          page_height,
        },
      ],
      pdf,
    };
    return reference;
  }
  const { image, image_width, image_height } = metadata;
  if (image && image_width && image_height && rects && rects.length > 0) {
    const reference: ImageReference = {
      ...base,
      kind: "image",
      metadata: { heading: metadata.heading },
      region: { rects, bbox: boundingRect(rects), image_width, image_height },
      image,
    };
    return reference;
  }
  const pages = page_index === undefined ? null : resultPages(metadata);
  return {
    ...base,
    kind: "paragraph",
    metadata: { heading: [metadata.heading, pages].filter(Boolean).join(" · ") || null },
  };
}
