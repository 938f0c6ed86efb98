"use client";
/**
 * PdfEvidence: the cited page of a PDF with the quoted lines highlighted. Loads the 3-page slice
 * through the host (`loadPdf`), per account (`authScope`), and renders only in the browser; on the
 * server and while loading it shows a placeholder of the same size. A load that fails is tried
 * once more when the failure may pass, then stops and says why, offering "Try again" (after a
 * wait that doubles each time) only where trying again can help.
 */
import { lazy, type ReactNode, Suspense, use, useEffect, useRef, useState } from "react";
import { ApiTimeoutError, CitedApiError, pdfLocation } from "../core/index.ts";
import type { PdfHighlightReference } from "../core/wire.ts";
import { CloseEvidenceButton, closeOnEscape } from "./close-evidence-button.tsx";
import { EvidenceBoundary } from "./evidence-boundary.tsx";
import { pageLabel, pageRangeLabel, sourceDetails, sourceName } from "./evidence-labels.ts";
import { describePdfFailure } from "./pdf-load-failure.ts";
import {
  forgetFailedPdfSlice,
  forgetPdfSlice,
  type LoadPdf,
  loadPdfSlice,
  slicePageCount,
} from "./pdf-slice-cache.ts";
import type { PdfDocumentOptions } from "./pdf-slice-viewer.tsx";
import { type PdfZoom, stepFrom } from "./pdf-zoom.ts";
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

const fits: ReadonlyArray<{ zoom: PdfZoom; label: string; title: string }> = [
  { zoom: "lines", label: "Lines", title: "Fit the cited lines" },
  { zoom: "width", label: "Width", title: "Fit the page's width" },
  { zoom: "page", label: "Page", title: "Fit the whole page" },
];

/** How long one try to load a slice may take: a 3-page slice comes in well under a second. */
const loadTimeoutMs = 15_000;

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
  const root = useRef<HTMLElement>(null);
  const sliceKey = `${authScope}\u0000${messageId}\u0000${reference.id}`;
  // A failure is kept while the evidence is open (nothing re-rendering it asks again); closed, it is
  // forgotten, so opening it later (signed in again, the service back) asks once more.
  useEffect(
    () => () => forgetFailedPdfSlice(authScope, { messageId, referenceId: reference.id }),
    [authScope, messageId, reference.id],
  );
  const [retries, setRetries] = useState({ sliceKey, count: 0 });
  const attempt = retries.sliceKey === sliceKey ? retries.count : 0;
  // It opens on the cited lines, large enough to read where the panel is narrow.
  const [zoom, setZoom] = useState<PdfZoom>("lines");
  const [scale, setScale] = useState<number | null>(null);
  const shownScale = typeof zoom === "number" ? zoom : (scale ?? 1);
  const zoomOut = stepFrom(shownScale, -1);
  const zoomIn = stepFrom(shownScale, 1);
  const page = pageLabel(reference);
  const pages = pageRangeLabel(reference.spans[0] ?? reference, reference.spans.at(-1) ?? reference);
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
      ref={root}
      tabIndex={-1}
      className={["cited-root", "cited-pdf", className].filter(Boolean).join(" ")}
      aria-label={`${sourceName(reference)}, ${pages}`}
      data-testid="cited-pdf-evidence"
      onKeyDown={closeOnEscape(onClose)}
    >
      <header className="cited-pdf__header">
        <div className="cited-pdf__heading">
          <h3 className="cited-pdf__title">{sourceName(reference)}</h3>
          <p className="cited-pdf__page-label">{sourceDetails(reference, pages)}</p>
        </div>
        <div className="cited-pdf__toolbar" role="toolbar" aria-label="Zoom">
          <button
            type="button"
            className="cited-button cited-button--icon"
            aria-label="Zoom out"
            disabled={zoomOut === null}
            onClick={() => zoomOut !== null && setZoom(zoomOut)}
          >
            −
          </button>
          <output className="cited-pdf__zoom" aria-live="polite" aria-label="Zoom level">
            {Math.round(shownScale * 100)}%
          </output>
          <button
            type="button"
            className="cited-button cited-button--icon"
            aria-label="Zoom in"
            disabled={zoomIn === null}
            onClick={() => zoomIn !== null && setZoom(zoomIn)}
          >
            +
          </button>
          <fieldset className="cited-pdf__fits">
            <legend className="cited-sr-only">Fit</legend>
            {fits.map((fit) => (
              <button
                key={fit.zoom}
                type="button"
                className="cited-button cited-pdf__fit"
                aria-pressed={zoom === fit.zoom}
                title={fit.title}
                aria-label={fit.title}
                onClick={() => setZoom(fit.zoom)}
              >
                {fit.label}
              </button>
            ))}
          </fieldset>
          {onClose ? <CloseEvidenceButton onClose={onClose} /> : null}
        </div>
      </header>
      {/* On a phone the cited lines fill the sheet's width at a small size: the quote is here in readable type. */}
      <details className="cited-pdf__quote" open data-testid="cited-pdf-quote">
        <summary>Quoted text</summary>
        <blockquote>{reference.quote}</blockquote>
      </details>
      {isClient ? (
        <EvidenceBoundary
          key={`${sliceKey}\u0000${attempt}`}
          fallback={(error) => (
            <PdfFailure
              error={error}
              failures={attempt + 1}
              onRetry={() => {
                forgetPdfSlice(authScope, { messageId, referenceId: reference.id });
                setRetries({ sliceKey, count: attempt + 1 });
                // The button goes with the failure: keyboard focus stays in the evidence.
                root.current?.focus();
              }}
            />
          )}
        >
          <Suspense fallback={placeholder}>
            <LoadedPdf
              reference={reference}
              messageId={messageId}
              authScope={authScope}
              loadPdf={loadPdf}
              zoom={zoom}
              onScale={setScale}
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
  zoom: PdfZoom;
  onScale(scale: number): void;
  placeholder: ReactNode;
  documentOptions?: PdfDocumentOptions;
}

function LoadedPdf({
  reference,
  messageId,
  authScope,
  loadPdf,
  zoom,
  onScale,
  placeholder,
  documentOptions,
}: LoadedPdfProps) {
  // Thrown before the slice is read: React renders a throwing component once more before the boundary
  // shows, and a read then would start a new load. "Try again" forgets the bytes and loads them afresh.
  const [renderError, setRenderError] = useState<Error | null>(null);
  if (renderError) throw renderError;
  const slice = use(
    loadPdfSlice(authScope, { messageId, referenceId: reference.id }, retryingOnce(timingOut(loadPdf))),
  );
  const location = pdfLocation(reference, slice.sliceStart);
  if (location === null) throw new Error("not a PDF reference");
  return (
    <Suspense fallback={placeholder}>
      <PdfSliceViewer
        slice={slice}
        label={`Pages ${slice.sliceStart + 1} to ${slice.sliceStart + slicePageCount(slice)} of ${sourceName(reference)}`}
        spans={location.spans}
        zoom={zoom}
        onScale={onScale}
        onError={setRenderError}
        {...(documentOptions ? { documentOptions } : {})}
      />
    </Suspense>
  );
}

/**
 * One more try for a failure that may pass at once: a dropped connection, or a 5xx. The host route
 * has already renewed an expired token; a 401, 403, 404 or 429 would only fail again, and a try
 * that timed out has already made the reader wait.
 */
function retryingOnce(loadPdf: LoadPdf): LoadPdf {
  return async (messageId, referenceId, options) => {
    try {
      return await loadPdf(messageId, referenceId, options);
    } catch (error) {
      const status = CitedApiError.isInstance(error) ? error.status : null;
      if ((status !== null && status < 500) || ApiTimeoutError.isInstance(error)) throw error;
      return loadPdf(messageId, referenceId, options);
    }
  };
}

/** Ends a try after `loadTimeoutMs`, aborting its request, also when the host's loader ignores the signal. */
function timingOut(loadPdf: LoadPdf): LoadPdf {
  return (messageId, referenceId, options) => {
    const controller = new AbortController();
    const timedOut = new Promise<never>((_, reject) => {
      const timer = setTimeout(() => {
        const error = new ApiTimeoutError("The page took too long to load");
        controller.abort(error);
        reject(error);
      }, loadTimeoutMs);
      controller.signal.addEventListener("abort", () => clearTimeout(timer));
    });
    const signal = options.signal ? AbortSignal.any([options.signal, controller.signal]) : controller.signal;
    const loading = loadPdf(messageId, referenceId, { ...options, signal });
    return Promise.race([loading, timedOut]).finally(() => controller.abort());
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

function PdfFailure({ error, failures, onRetry }: { error: unknown; failures: number; onRetry(): void }) {
  const failure = describePdfFailure(error, failures);
  const secondsLeft = useCountdown(failure.retryAfterSeconds ?? 0);
  return (
    <div className="cited-pdf__failure" data-testid="cited-pdf-error">
      {/* The button's countdown stays out of the alert, which is read out once. */}
      <div role="alert">
        <p>{failure.message}</p>
        {failure.requestId ? <p className="cited-muted">Request id: {failure.requestId}</p> : null}
      </div>
      {failure.retryAfterSeconds === null ? null : (
        <button type="button" className="cited-button" disabled={secondsLeft > 0} onClick={onRetry}>
          {secondsLeft > 0 ? `Try again in ${secondsLeft} s` : "Try again"}
        </button>
      )}
    </div>
  );
}

/** Seconds left of a wait of `seconds` that started when the component mounted. */
function useCountdown(seconds: number): number {
  const [left, setLeft] = useState(seconds);
  useEffect(() => {
    if (left <= 0) return;
    const timer = setTimeout(() => setLeft(left - 1), 1000);
    return () => clearTimeout(timer);
  }, [left]);
  return left;
}
