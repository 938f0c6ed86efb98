/** PDF page slice and token refresh payloads. */
import { z } from "zod";
import { externalSessionSchema, idUserSchema, referenceIdSchema } from "./common.ts";
import { pdfTokenSchema } from "./reference.ts";

/** `?page=` as sent in a URL: decimal digits only, so "", "0x10", "1e2" or " 1" are not silently read as pages. */
export const pdfPageQuerySchema = z.object({
  page: z
    .string({ error: "page must be a 0-based page index" })
    .regex(/^\d{1,6}$/, "page must be a 0-based page index (decimal digits)")
    .transform(Number),
});

export const pdfRefreshRequestSchema = z.object({
  token: z.string().min(1).max(4096),
  id_reference: referenceIdSchema,
  id_user: idUserSchema,
  external_session: externalSessionSchema,
});

export const pdfRefreshResponseSchema = pdfTokenSchema;

/** Response headers of the PDF page endpoint. */
export const pdfSliceHeaders = {
  sliceStart: "X-Pdf-Slice-Start",
  pageCount: "X-Pdf-Page-Count",
} as const;

export type PdfPageQuery = z.infer<typeof pdfPageQuerySchema>;
export type PdfRefreshRequest = z.infer<typeof pdfRefreshRequestSchema>;
export type PdfRefreshResponse = z.infer<typeof pdfRefreshResponseSchema>;
