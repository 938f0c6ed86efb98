"use client";
/**
 * The react-pdf part of `PdfEvidence`, loaded only in the browser (pdfjs touches `DOMMatrix` as it
 * loads). Pages are rendered at the width the zoom gives (see pdf-zoom.ts), and each highlight box is
 * placed from the reference's page coordinates scaled to that width, never from text-layer spans,
 * so the boxes stay on their lines at every size.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Document, Page, pdfjs } from "react-pdf";
import "react-pdf/dist/Page/TextLayer.css";
import type { PdfSpanLocation } from "../core/pdf-location.ts";
import { highlightBoxes } from "./highlight-boxes.ts";
import type { PdfSlice } from "./pdf-slice-cache.ts";
import { type PdfZoom, zoomScale } from "./pdf-zoom.ts";
import { useElementSize } from "./use-element-size.ts";

// Set in the module that renders <Document>, as react-pdf asks; pdfjs-dist is react-pdf's own dependency.
pdfjs.GlobalWorkerOptions.workerSrc = new URL(
  "pdfjs-dist/build/pdf.worker.min.mjs",
  import.meta.url,
).toString();

/** pdfjs options for the document (`cMapUrl`, `standardFontDataUrl`, …); pass a stable object. */
export type PdfDocumentOptions = Record<string, unknown>;

let sharedWorker: InstanceType<typeof pdfjs.PDFWorker> | null = null;

/**
 * One pdfjs worker for every slice shown, started as this module loads (while the slice is still on
 * its way). pdfjs otherwise starts a worker, and evaluates its 1 MB script, for each document it opens:
 * seconds on a busy device, every time evidence opens.
 */
function pdfWorker(): InstanceType<typeof pdfjs.PDFWorker> {
  if (sharedWorker === null || sharedWorker.destroyed) {
    sharedWorker = pdfjs.PDFWorker.create({ port: pdfjs.GlobalWorkerOptions.workerPort ?? undefined });
  }
  return sharedWorker;
}

if (typeof window !== "undefined") pdfWorker();

export interface PdfSliceViewerProps {
  slice: PdfSlice;
  /** The quote's pages, placed in the slice (`pageInSlice`). */
  spans: PdfSpanLocation[];
  /** What the pages are, for assistive technology ("Pages 22 to 24 of R-intro.pdf"). */
  label: string;
  zoom: PdfZoom;
  /** Told the scale `zoom` comes to (1 = the panel's width), whenever it changes. */
  onScale?(scale: number): void;
  documentOptions?: PdfDocumentOptions;
  onError(error: Error): void;
}

/** Room kept left of the cited lines when the page is scrolled to them, in CSS pixels. */
const scrollMargin = 12;

const noOptions: PdfDocumentOptions = {};

export default function PdfSliceViewer({
  slice,
  spans,
  label,
  zoom,
  onScale,
  documentOptions = noOptions,
  onError,
}: PdfSliceViewerProps) {
  const [scroller, setScroller] = useState<HTMLElement | null>(null);
  const [measured, setMeasured] = useState<HTMLDivElement | null>(null);
  const { width } = useElementSize(measured);
  const { height } = useElementSize(scroller);
  const scale = zoomScale(zoom, spans[0], { width, height });
  const pageWidth = Math.max(120, Math.floor(width * scale));
  useEffect(() => {
    if (width > 0) onScale?.(scale);
  }, [onScale, scale, width]);
  // pdfjs hands the bytes to its worker and detaches them: give it a copy, keep the cached slice intact.
  const file = useMemo(() => ({ data: slice.bytes.slice() }), [slice]);
  // A worker the host passes (or a port it set up) wins over the shared one.
  // pdfjs need not compile code from strings: a page whose Content-Security-Policy forbids it works as well.
  const options = useMemo(
    () => ({ worker: pdfWorker(), isEvalSupported: false, ...documentOptions }),
    [documentOptions],
  );
  const citedPage = spans[0]?.pageInSlice ?? 0;
  // The zoom at which the highlight was last scrolled into view: a new zoom scrolls to it again.
  const scrolledAtZoom = useRef<PdfZoom | null>(null);
  // The pages the document really has: a slice near a document's end holds fewer than three.
  const [pageCount, setPageCount] = useState(0);

  const spansByPage = useMemo(() => {
    const byPage = new Map<number, PdfSpanLocation>();
    for (const span of spans) if (span.pageInSlice !== undefined) byPage.set(span.pageInSlice, span);
    return byPage;
  }, [spans]);

  const showCitedPage = useCallback(() => {
    if (scrolledAtZoom.current === zoom || scroller === null) return;
    const boxes = [...scroller.querySelectorAll<HTMLElement>("[data-cited-highlight]")];
    const target = boxes[0];
    if (target === undefined) return;
    scrolledAtZoom.current = zoom;
    const frame = scroller.getBoundingClientRect();
    scroller.scrollTop += target.getBoundingClientRect().top - frame.top - scroller.clientHeight / 3;
    const left = Math.min(...boxes.map((box) => box.getBoundingClientRect().left));
    scroller.scrollLeft += left - frame.left - scrollMargin;
  }, [scroller, zoom]);

  return (
    <section
      ref={setScroller}
      className="cited-pdf__scroller"
      data-testid="cited-pdf-pages"
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus to scroll by keyboard (WCAG 2.1.1).
      tabIndex={0}
    >
      <div ref={setMeasured} className="cited-pdf__measure" />
      {width > 0 ? (
        <Document
          file={file}
          options={options}
          onLoadSuccess={(document) => setPageCount(document.numPages)}
          onLoadError={onError}
          onSourceError={onError}
          loading={null}
          error={null}
          suspense={false}
          className="cited-pdf__document"
        >
          {Array.from({ length: pageCount }, (_, index) => {
            const span = spansByPage.get(index);
            return (
              <div
                // biome-ignore lint/suspicious/noArrayIndexKey: a slice's pages are fixed by their position.
                key={index}
                className="cited-pdf__page-frame"
                data-page-index={slice.sliceStart + index}
              >
                <Page
                  pageNumber={index + 1}
                  width={pageWidth}
                  renderAnnotationLayer={false}
                  suspense={false}
                  className="cited-pdf__page"
                  loading={null}
                  onRenderSuccess={index === citedPage ? showCitedPage : undefined}
                  onRenderError={onError}
                >
                  {span
                    ? highlightBoxes(span.rects, span.pageWidth, pageWidth).map((box, rectIndex) => (
                        <span
                          // biome-ignore lint/suspicious/noArrayIndexKey: one box per line, in line order.
                          key={rectIndex}
                          className="cited-pdf__highlight"
                          data-cited-highlight=""
                          data-page-index={span.pageIndex}
                          style={{ left: box.left, top: box.top, width: box.width, height: box.height }}
                        />
                      ))
                    : null}
                </Page>
              </div>
            );
          })}
        </Document>
      ) : null}
    </section>
  );
}
