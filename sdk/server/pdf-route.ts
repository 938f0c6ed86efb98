/**
 * `GET /pdf/{messageId}/{referenceId}`: the cited PDF slice, only for the user who owns the answer.
 * `GET /passage-pdf/{token}`: the slice of a passage `rag` found for the user.
 */
import { HttpProblem } from "../core/index.ts";
import { pdfSliceHeaders } from "../core/wire.ts";
import { type ReferenceTokenContext, searchTokenFailure, withRenewedToken } from "./reference-token.ts";
import type { PdfSlice, ServiceClient } from "./service-client.ts";
import type { StoredReference } from "./service-store.ts";

export interface PdfRouteContext extends ReferenceTokenContext {
  /** `?page=`: another page of a quote that spans pages; the reference's first page by default. */
  page: string | null;
}

/**
 * Serves a reference's PDF slice. Ownership is checked in the store before anything reaches
 * the service (403 for a reference the user does not own or that does not exist). An expired
 * token is renewed once (the new token is stored) and the slice fetched once more; a refresh
 * that lost a race to a parallel request uses the token that request stored.
 *
 * @example
 * return servePdf({ store, client, user, messageId, referenceId, page: null, signal, requestId });
 */
export async function servePdf(context: PdfRouteContext): Promise<Response> {
  const { store, user, messageId, referenceId } = context;
  const found = await store.findReference(user.id, messageId, referenceId);
  if (!found)
    throw new HttpProblem(403, "forbidden", "This reference is not one of your answers' references.");
  if (found.reference.kind !== "pdf_highlight" || !found.pdf) {
    throw new HttpProblem(404, "not_found", "This reference has no PDF page.");
  }
  const page = pageOf(found, context.page);
  const slice = await withRenewedToken(context, found, found.pdf.token, (token) =>
    fetchSlice(context, token, page),
  );
  return sliceResponse(slice, context.requestId);
}

export interface PassagePdfContext {
  client: ServiceClient;
  user: { externalUserId: string };
  /** The token `rag` gave the passage for this user (`metadata.pdf.token`). */
  token: string;
  page: string | null;
  signal: AbortSignal;
  requestId: string;
}

/**
 * Serves the slice of a passage `rag` found. The service binds the token to the user it searched for
 * and checks that this user is the one: another user's token is a 403, and an expired one a 409 (such a
 * token is not renewed; searching again gives a new one).
 */
export async function servePassagePdf(context: PassagePdfContext): Promise<Response> {
  const page = context.page ?? "";
  if (!/^\d{1,9}$/.test(page)) {
    throw new HttpProblem(422, "invalid_input", "page must be the page of the passage to show.", {
      errors: [{ path: "page", message: "a page index" }],
    });
  }
  try {
    const slice = await context.client.pdf(context.token, Number(page), context.user.externalUserId, {
      signal: context.signal,
      requestId: context.requestId,
    });
    return sliceResponse(slice, context.requestId);
  } catch (error) {
    throw searchTokenFailure(error, "page");
  }
}

function sliceResponse(slice: PdfSlice, requestId: string): Response {
  return new Response(slice.bytes, {
    headers: {
      "Content-Type": "application/pdf",
      [pdfSliceHeaders.sliceStart]: String(slice.sliceStart),
      [pdfSliceHeaders.pageCount]: String(slice.documentPageCount),
      "Cache-Control": "private, no-store",
      "X-Request-ID": requestId,
    },
  });
}

function fetchSlice(context: PdfRouteContext, token: string, page: number): Promise<PdfSlice> {
  return context.client.pdf(token, page, context.user.externalUserId, {
    signal: context.signal,
    requestId: context.requestId,
  });
}

function pageOf(found: StoredReference, requested: string | null): number {
  const reference = found.reference;
  if (reference.kind !== "pdf_highlight") return 0;
  if (requested === null) return reference.page_index;
  const pages = reference.spans.map((span) => span.page_index);
  const page = /^\d{1,9}$/.test(requested) ? Number(requested) : Number.NaN;
  if (!pages.includes(page)) {
    throw new HttpProblem(
      422,
      "invalid_input",
      `page must be a page of the reference: ${pages.join(", ")}.`,
      {
        errors: [{ path: "page", message: `one of ${pages.join(", ")}` }],
      },
    );
  }
  return page;
}
