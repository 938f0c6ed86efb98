/**
 * Loaded PDF slices, kept per account: every entry is keyed by `authScope`, so a slice loaded
 * while one account was signed in is never handed to another account in the same browser.
 */

/** A slice of a cited PDF: its pages start at the document's 0-based page `sliceStart`; `documentPageCount` counts the whole document's. */
export interface PdfSlice {
  bytes: Uint8Array;
  sliceStart: number;
  documentPageCount: number;
}

/** The service slices the pages around the cited one: 3, or all of them when the document has fewer. */
const maxSlicePages = 3;

/** How many pages `slice` holds. */
export function slicePageCount(slice: PdfSlice): number {
  return Math.max(0, Math.min(maxSlicePages, slice.documentPageCount - slice.sliceStart));
}

export interface PdfSliceRequest {
  messageId: string;
  referenceId: string;
  /** A page of a quote that spans pages; the reference's first page when absent. */
  page?: number;
}

/**
 * Loads a slice through the host's endpoint; `createServiceBrowserClient(...).pdf` fits as it is.
 *
 * @example
 * const loadPdf: LoadPdf = (messageId, referenceId, options) => cited.pdf(messageId, referenceId, options);
 */
export type LoadPdf = (
  messageId: string,
  referenceId: string,
  options: { page?: number; signal?: AbortSignal },
) => Promise<PdfSlice>;

/** Slices kept at once across accounts; a long chat cites more, and the oldest are loaded again. */
const capacity = 24;
const slices = new Map<string, Promise<PdfSlice>>();
/** Keys of the entries whose load failed. */
const failed = new Set<string>();

function cacheKey(authScope: string, request: PdfSliceRequest): string {
  return JSON.stringify([authScope, request.messageId, request.referenceId, request.page ?? null]);
}

/**
 * The slice for `request` in `authScope`: the cached one, or a new load. A failed load is kept
 * as failed, so that a component rendering again gets the same failure instead of starting a new
 * load each time (React renders a suspended component again when its promise settles); call
 * `forgetPdfSlice` to try again.
 */
export function loadPdfSlice(
  authScope: string,
  request: PdfSliceRequest,
  loadPdf: LoadPdf,
): Promise<PdfSlice> {
  const key = cacheKey(authScope, request);
  const cached = slices.get(key);
  if (cached) {
    slices.delete(key);
    slices.set(key, cached);
    return cached;
  }
  const options = request.page === undefined ? {} : { page: request.page };
  const loading = loadPdf(request.messageId, request.referenceId, options);
  slices.set(key, loading);
  // The failure stays in the entry for whoever reads it; this handler notes it, and keeps an entry that
  // nobody has read yet from being reported as an unhandled rejection.
  loading.catch(() => {
    if (slices.get(key) === loading) failed.add(key);
  });
  while (slices.size > capacity) {
    const oldest = slices.keys().next().value;
    if (oldest === undefined) break;
    slices.delete(oldest);
    failed.delete(oldest);
  }
  return loading;
}

/** Drops one cached slice or failure, so that the next call loads it again: "Try again". */
export function forgetPdfSlice(authScope: string, request: PdfSliceRequest): void {
  const key = cacheKey(authScope, request);
  slices.delete(key);
  failed.delete(key);
}

/**
 * Drops the entry only if its load failed: when the evidence closes, so that opening it again (after
 * signing in again, or once the service is back) asks once more, while nothing re-rendering it can.
 */
export function forgetFailedPdfSlice(authScope: string, request: PdfSliceRequest): void {
  if (failed.has(cacheKey(authScope, request))) forgetPdfSlice(authScope, request);
}

/**
 * Drops cached slices: those of one account (call it when that account signs out), or all.
 *
 * @example
 * await signOut();
 * forgetPdfSlices(authScope);
 */
export function forgetPdfSlices(authScope?: string): void {
  for (const key of [...slices.keys()]) {
    if (authScope === undefined || (JSON.parse(key) as unknown[])[0] === authScope) {
      slices.delete(key);
      failed.delete(key);
    }
  }
}
