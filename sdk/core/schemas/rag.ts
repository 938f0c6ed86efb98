/** The rag request and its ranked passages. */
import { z } from "zod";
import { limits } from "../limits.ts";
import { datasourceIdSchema, documentIdSchema, idUserSchema } from "./common.ts";
import { pdfTokenSchema, rectSchema, referenceKindSchema } from "./reference.ts";
import { boundedText } from "./text.ts";

export const ragRequestSchema = z.object({
  query: boundedText("query", limits.queryLength.min, limits.queryLength.max),
  id_user: idUserSchema.optional(),
  max_results: z
    .int({ error: "max_results must be an integer" })
    .min(limits.maxResults.min, `max_results must be ${limits.maxResults.min} to ${limits.maxResults.max}`)
    .max(limits.maxResults.max, `max_results must be ${limits.maxResults.min} to ${limits.maxResults.max}`)
    .default(limits.maxResults.default),
  datasource_ids: z
    .array(z.string().min(1).max(128))
    .max(limits.datasourceIds.max, `datasource_ids holds at most ${limits.datasourceIds.max} entries`)
    .optional(),
});

export const retrievalMetadataSchema = z.looseObject({
  kind: referenceKindSchema,
  title: z.string(),
  file_name: z.string(),
  id_document: documentIdSchema,
  heading: z.string().nullable(),
  score: z.number(),
  page_index: z.int().min(0).optional(),
  /** The printed label of `page_index` where the PDF defines page labels, else null. */
  page_label: z.string().nullable().optional(),
  page_indices: z.array(z.int().min(0)).optional(),
  page_width: z.number().positive().optional(),
  page_height: z.number().positive().optional(),
  /** PDF points on `page_index`; for an image read by OCR, pixels of the image (`image_width` × `image_height`). */
  rects: z.array(rectSchema).optional(),
  image_width: z.int().positive().optional(),
  image_height: z.int().positive().optional(),
  url: z.string().nullable().optional(),
  start_s: z.number().min(0).optional(),
  end_s: z.number().min(0).optional(),
  /**
   * A PDF passage found for an `id_user`: the token that serves its pages (`page_indices`) to that user
   * through the PDF page endpoint. It is not renewed; a new search gives a new one.
   */
  pdf: pdfTokenSchema.optional(),
  /**
   * An image read by OCR, found for an `id_user`: the token that serves the image to that user through the
   * image endpoint. Not renewed either.
   */
  image: pdfTokenSchema.optional(),
});

export const retrievalResultSchema = z.looseObject({
  id_element: z.string(),
  id_datasource: datasourceIdSchema,
  content: z.string(),
  rank: z.int().min(1),
  metadata: retrievalMetadataSchema,
});

export const ragResponseSchema = z.looseObject({
  results: z.array(retrievalResultSchema),
});

export type RagRequest = z.input<typeof ragRequestSchema>;
export type ParsedRagRequest = z.infer<typeof ragRequestSchema>;
export type RetrievalMetadata = z.infer<typeof retrievalMetadataSchema>;
export type RetrievalResult = z.infer<typeof retrievalResultSchema>;
export type RagResponse = z.infer<typeof ragResponseSchema>;

/** A document the assistant answers from (ready, so its passages are searched). */
export const sourceSchema = z.looseObject({
  id_document: documentIdSchema,
  id_datasource: datasourceIdSchema,
  /** The document's own title where it names one, else its file name. */
  title: z.string(),
  file_name: z.string(),
  /** Pages of a PDF; null for sources without pages. */
  pages: z.int().min(0).nullable(),
});

/** What the assistant answers from: its first `limits.sourcesListed` ready documents, oldest first, and how many there are. */
export const sourceListSchema = z.looseObject({
  sources: z.array(sourceSchema),
  total: z.int().min(0),
});

export type Source = z.infer<typeof sourceSchema>;
export type SourceList = z.infer<typeof sourceListSchema>;
