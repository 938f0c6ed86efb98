/** Claims and references: what an answer's markers resolve to. */
import { z } from "zod";
import { datasourceIdSchema, documentIdSchema, referenceIdSchema } from "./common.ts";

/** `[x0, y0, x1, y1]` in PDF points, top-left origin of the displayed (rotated, cropped) page. */
export const rectSchema = z.tuple([z.number(), z.number(), z.number(), z.number()]);

export const pdfSpanSchema = z.object({
  page_index: z.int().min(0),
  /** The page's printed label ("vi", "34") where the PDF defines page labels; absent where it does not. */
  page_label: z.string().optional(),
  rects: z.array(rectSchema),
  page_width: z.number().positive(),
  page_height: z.number().positive(),
});

export const pdfTokenSchema = z.object({
  token: z.string().min(1),
  expires_at: z.iso.datetime(),
});

const referenceBase = {
  id: referenceIdSchema,
  id_datasource: datasourceIdSchema,
  id_document: documentIdSchema,
  title: z.string(),
  quote: z.string(),
  url: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()),
};

export const pdfHighlightReferenceSchema = z.looseObject({
  ...referenceBase,
  kind: z.literal("pdf_highlight"),
  page_index: z.int().min(0),
  /**
   * The printed label of `page_index` ("vi", "34") where the PDF defines page labels, else null.
   * Absent from references stored before the service sent it.
   */
  page_label: z.string().nullable().optional(),
  rects: z.array(rectSchema),
  bbox: rectSchema,
  page_width: z.number().positive(),
  page_height: z.number().positive(),
  spans: z.array(pdfSpanSchema).min(1),
  pdf: pdfTokenSchema,
});

export const chartHintSchema = z.object({
  type: z.enum(["line", "bar", "scatter", "pie", "none"]),
  x: z.string().nullable(),
  y: z.array(z.string()),
});

export const tableReferenceSchema = z.looseObject({
  ...referenceBase,
  kind: z.literal("table"),
  columns: z.array(z.string()),
  rows: z.array(z.array(z.string())),
  chart_hint: chartHintSchema,
});

export const timedReferenceSchema = z.looseObject({
  ...referenceBase,
  kind: z.enum(["video_interval", "transcript_snippet"]),
  start_s: z.number().min(0),
  end_s: z.number().min(0),
});

/** The cited sentences among their neighbours in the same passage; for code, one line each. */
export const textContextSchema = z.object({
  before: z.array(z.string()),
  cited: z.array(z.string()),
  after: z.array(z.string()),
  /** The passage is a code block: show the lines as code. */
  code: z.boolean(),
});

/** Where an uploaded image read by OCR shows the quote: pixels of the image, origin top-left, one rect per line. */
export const imageRegionSchema = z.object({
  rects: z.array(rectSchema).min(1),
  bbox: rectSchema,
  image_width: z.int().positive(),
  image_height: z.int().positive(),
});

export const imageReferenceSchema = z.looseObject({
  ...referenceBase,
  kind: z.literal("image"),
  /** For an uploaded image read by OCR, with `image`; absent for a picture a page links to (`url`). */
  region: imageRegionSchema.optional(),
  /** The short-lived token that serves the uploaded image (`GET /chat/reference/image/{token}`), with `region`. */
  image: pdfTokenSchema.optional(),
  context: textContextSchema.optional(),
});

export const plainReferenceSchema = z.looseObject({
  ...referenceBase,
  kind: z.enum(["paragraph", "catalogue_record", "external_link"]),
  /** For `paragraph` and `external_link`: the quote in its context. Absent from answers stored before it was sent. */
  context: textContextSchema.optional(),
});

export const referenceSchema = z.discriminatedUnion("kind", [
  pdfHighlightReferenceSchema,
  tableReferenceSchema,
  timedReferenceSchema,
  imageReferenceSchema,
  plainReferenceSchema,
]);

export const referenceKindSchema = z.enum([
  "pdf_highlight",
  "paragraph",
  "table",
  "image",
  "video_interval",
  "transcript_snippet",
  "catalogue_record",
  "external_link",
]);

export const claimSchema = z.looseObject({
  n: z.int().min(1),
  text: z.string(),
  reference_ids: z.array(referenceIdSchema),
  /** How well the cited text backs the claim's text: 1 for a quote, the verifier's score for a model's sentence. */
  support: z.number().min(0).max(1),
  /** How directly the claim answers the question (0–1). Absent from answers stored before it was sent. */
  relevance: z.number().min(0).max(1).optional(),
  /** The claim's text is the cited text, word for word. Absent from answers stored before it was sent. */
  verbatim: z.boolean().optional(),
});

export type Rect = z.infer<typeof rectSchema>;
export type PdfSpan = z.infer<typeof pdfSpanSchema>;
export type PdfToken = z.infer<typeof pdfTokenSchema>;
export type ChartHint = z.infer<typeof chartHintSchema>;
export type PdfHighlightReference = z.infer<typeof pdfHighlightReferenceSchema>;
export type ImageReference = z.infer<typeof imageReferenceSchema>;
export type ImageRegion = z.infer<typeof imageRegionSchema>;
export type Reference = z.infer<typeof referenceSchema>;
export type ReferenceKind = z.infer<typeof referenceKindSchema>;
export type Claim = z.infer<typeof claimSchema>;
export type TextContext = z.infer<typeof textContextSchema>;
