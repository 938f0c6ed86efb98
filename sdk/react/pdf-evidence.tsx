"use client";
/**
 * PdfEvidence: the cited page of a PDF with the quoted lines highlighted. Loads the 3-page slice
 * through the host (`loadPdf`), per account (`authScope`), retries once, and renders only in the
 * browser; on the server and while loading it shows a placeholder of the same size.
 */
import { lazy, type ReactNode, Suspense, use, useEffect, useState } from "react";
import {
  AuthenticationError,
  CitedApiError,
  NotFoundError,
  type PdfHighlightReference,
  PermissionDeniedError,
  pdfLocation,
  RateLimitError,
} from "../core/index.ts";
import { CloseEvidenceButton, closeOnEscape } from "./close-evidence-button.tsx";
import { EvidenceBoundary } from "./evidence-boundary.tsx";
import { pageLabel } from "./evidence-labels.ts";
import { forgetPdfSlice, type LoadPdf, loadPdfSlice, slicePageCount } from "./pdf-slice-cache.ts";
import type { PdfDocumentOptions } from "./pdf-slice-viewer.tsx";
import { useIsClient } from "./use-is-client.ts";

const loadViewer = () => import("./pdf-slice-viewer.tsx");
const PdfSliceViewer = lazy(loadViewer);

export interface PdfEvidenceProps {
  reference: PdfHighlightReference;
  /** The stored answer that cited the reference; the host checks that the user owns it. */
  messageId: string;
  /** Backend, tenant and account of the signed-in user: keys every cached slice. */
  authScope: string;
  loadPdf: LoadPdf;
  /** pdfjs options such as `cMapUrl` and `standardFontDataUrl`; a stable object. */
  documentOptions?: PdfDocumentOptions;
  /** Shows a close button, and Escape closes. */
  onClose?(): void;
  className?: string;
}

const zoomSteps = [0.5, 0.75, 1, 1.25, 1.5, 2, 3] as const;

/**
 * @example
 * <PdfEvidence reference={reference} messageId={messageId} authScope={`host:${tenant}:${user.id}`}
 *   loadPdf={cited.pdf} onClose={() => setOpen(null)} />
 */
export function PdfEvidence({
  reference,
  messageId,
  authScope,
  loadPdf,
  documentOptions,
  onClose,
  className,
}: PdfEvidenceProps) {
  const isClient = useIsClient();
  const [attempt, setAttempt] = useState(0);
  const [zoom, setZoom] = useState(1);
  const page = pageLabel(reference.page_index);
  const spansPages = reference.spans.length > 1 ? ` to ${pageLabel(reference.spans.at(-1)!.page_index)}` : "";
  const zoomIndex = zoomSteps.findIndex((step) => step === zoom);
  // The viewer's code (react-pdf and pdfjs) loads while the slice does, not after it: on a busy
  // device the two in a row took seconds longer.
  useEffect(() => {
    loadViewer().catch(() => {
      // A failed load is retried, and reported, when the lazy viewer renders.
    });
  }, []);
  const placeholder = <PdfPlaceholder>Loading {page}…</PdfPlaceholder>;

  return (
    <section
      className={["cited-root", "cited-pdf", className].filter(Boolean).join(" ")}
      aria-label={`${reference.title}, ${page}`}
      data-testid="cited-pdf-evidence"
      onKeyDown={closeOnEscape(onClose)}
    >
      <header className="cited-pdf__header">
        <div className="cited-pdf__heading">
          <h3 className="cited-pdf__title">{reference.title}</h3>
          <p className="cited-pdf__page-label">
            {page}
            {spansPages}
          </p>
        </div>
        <div className="cited-pdf__toolbar" role="toolbar" aria-label="Zoom">
          <button
            type="button"
            className="cited-button cited-button--icon"
            aria-label="Zoom out"
            disabled={zoomIndex === 0}
            onClick={() => setZoom(zoomSteps[Math.max(0, zoomIndex - 1)]!)}
          >
            −
          </button>
          <output className="cited-pdf__zoom" aria-live="polite" aria-label="Zoom level">
            {Math.round(zoom * 100)}%
          </output>
          <button
            type="button"
            className="cited-button cited-button--icon"
            aria-label="Zoom in"
            disabled={zoomIndex === zoomSteps.length - 1}
            onClick={() => setZoom(zoomSteps[Math.min(zoomSteps.length - 1, zoomIndex + 1)]!)}
          >
            +
          </button>
          <button type="button" className="cited-button" aria-pressed={zoom === 1} onClick={() => setZoom(1)}>
            Fit width
          </button>
          {onClose ? <CloseEvidenceButton onClose={onClose} /> : null}
        </div>
      </header>
      {isClient ? (
        <EvidenceBoundary
          key={`${authScope}\u0000${messageId}\u0000${reference.id}\u0000${attempt}`}
          fallback={(error) => <PdfFailure error={error} onRetry={() => setAttempt((count) => count + 1)} />}
        >
          <Suspense fallback={placeholder}>
            <LoadedPdf
              reference={reference}
              messageId={messageId}
              authScope={authScope}
              loadPdf={loadPdf}
              zoom={zoom}
              placeholder={placeholder}
              {...(documentOptions ? { documentOptions } : {})}
            />
          </Suspense>
        </EvidenceBoundary>
      ) : (
        placeholder
      )}
    </section>
  );
}

interface LoadedPdfProps extends Pick<PdfEvidenceProps, "reference" | "messageId" | "authScope" | "loadPdf"> {
  zoom: number;
  placeholder: ReactNode;
  documentOptions?: PdfDocumentOptions;
}

function LoadedPdf({
  reference,
  messageId,
  authScope,
  loadPdf,
  zoom,
  placeholder,
  documentOptions,
}: LoadedPdfProps) {
  const slice = use(loadPdfSlice(authScope, { messageId, referenceId: reference.id }, retryingOnce(loadPdf)));
  const location = pdfLocation(reference, slice.sliceStart);
  const [renderError, setRenderError] = useState<Error | null>(null);
  if (renderError) {
    // Bytes pdfjs cannot draw are not kept: "Try again" loads them afresh.
    forgetPdfSlice(authScope, { messageId, referenceId: reference.id });
    throw renderError;
  }
  if (location === null) throw new Error("not a PDF reference");
  return (
    <Suspense fallback={placeholder}>
      <PdfSliceViewer
        slice={slice}
        label={`Pages ${slice.sliceStart + 1} to ${slice.sliceStart + slicePageCount(slice)} of ${reference.title}`}
        spans={location.spans}
        zoom={zoom}
        onError={setRenderError}
        {...(documentOptions ? { documentOptions } : {})}
      />
    </Suspense>
  );
}

/**
 * One more try for a failure that may pass: no answer from the host, or a 5xx. The host route has
 * already renewed an expired token; a 401, 403, 404 or 429 would only fail again.
 */
function retryingOnce(loadPdf: LoadPdf): LoadPdf {
  return async (messageId, referenceId, options) => {
    try {
      return await loadPdf(messageId, referenceId, options);
    } catch (error) {
      const status = CitedApiError.isInstance(error) ? error.status : null;
      if (status !== null && status < 500) throw error;
      return loadPdf(messageId, referenceId, options);
    }
  };
}

function PdfPlaceholder({ children }: { children: ReactNode }) {
  return (
    <div className="cited-pdf__placeholder" role="status" data-testid="cited-pdf-loading">
      <span className="cited-spinner" aria-hidden="true" />
      {children}
    </div>
  );
}

function PdfFailure({ error, onRetry }: { error: unknown; onRetry(): void }) {
  const requestId = CitedApiError.isInstance(error) ? error.requestId : null;
  return (
    <div className="cited-pdf__failure" role="alert" data-testid="cited-pdf-error">
      <p>{failureMessage(error)}</p>
      {requestId ? <p className="cited-muted">Request id: {requestId}</p> : null}
      <button type="button" className="cited-button" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}

function failureMessage(error: unknown): string {
  if (AuthenticationError.isInstance(error)) return "Your session has ended. Sign in again to see this page.";
  if (PermissionDeniedError.isInstance(error) || NotFoundError.isInstance(error)) {
    return "This source is not available to your account.";
  }
  if (RateLimitError.isInstance(error)) return "Too many requests just now. Wait a moment, then try again.";
  if (CitedApiError.isInstance(error)) return "The page could not be loaded.";
  return "The page could not be shown.";
}
