/**
 * `GET /pdf/{messageId}/{referenceId}`: the cited PDF slice, only for the user who owns the answer.
 * `GET /passage-pdf/{token}`: the slice of a passage `rag` found for the user.
 */
import { AuthenticationError, CitedApiError, ConflictError, HttpProblem } from "../core/index.ts";
import { pdfSliceHeaders } from "../core/wire.ts";
import type { PdfSlice, ServiceClient } from "./service-client.ts";
import { problemFromServiceError } from "./service-problem.ts";
import type { ServiceStore, StoredReference } from "./service-store.ts";

export interface PdfRouteContext {
  store: ServiceStore;
  client: ServiceClient;
  user: { id: string; externalUserId: string };
  messageId: string;
  referenceId: string;
  /** `?page=`: another page of a quote that spans pages; the reference's first page by default. */
  page: string | null;
  signal: AbortSignal;
  requestId: string;
}

/** Service failures the browser can act on: gone, renewed too often, bad page, slow down. */
const passThrough = [404, 409, 422, 429] as const;

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
  let token = found.pdf.token;
  let slice: PdfSlice;
  try {
    slice = await fetchSlice(context, token, page);
  } catch (error) {
    if (!(AuthenticationError.isInstance(error) && error.code === "token_expired")) throw mapped(error);
    token = await renew(context, found, token);
    slice = await fetchSlice(context, token, page).catch((retryError: unknown) => {
      throw mapped(retryError);
    });
  }
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
    if (CitedApiError.isInstance(error) && error.code === "token_expired") {
      throw new HttpProblem(409, "token_expired", "This result's page link has expired; search again.");
    }
    if (CitedApiError.isInstance(error) && (error.code === "forbidden" || error.code === "invalid_token")) {
      throw new HttpProblem(403, "forbidden", "This page was not found for you.");
    }
    throw mapped(error);
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

async function renew(context: PdfRouteContext, found: StoredReference, expired: string): Promise<string> {
  const { store, user, messageId, referenceId } = context;
  try {
    const renewed = await context.client.refresh(
      {
        token: expired,
        id_reference: referenceId,
        id_user: user.externalUserId,
        external_session: found.conversationId,
      },
      { signal: context.signal, requestId: context.requestId },
    );
    await store.replaceReferenceToken(user.id, messageId, referenceId, renewed);
    return renewed.token;
  } catch (error) {
    if (ConflictError.isInstance(error)) {
      const current = await store.findReference(user.id, messageId, referenceId);
      if (current?.pdf && current.pdf.token !== expired) return current.pdf.token;
    }
    throw mapped(error);
  }
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

function mapped(error: unknown): unknown {
  return problemFromServiceError(error, passThrough) ?? error;
}
