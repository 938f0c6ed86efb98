"use client";
/**
 * ImageEvidence: an uploaded image with the quoted lines highlighted, as OCR found them. Loads the image
 * through the host (`loadImage`, which checks that the user owns the answer), scales it to the panel's
 * width and scrolls the first highlighted line into view. The quote is always shown as text too: a
 * browser that cannot draw the format (most cannot draw TIFF) still shows what was cited.
 */
import { useEffect, useRef, useState } from "react";
import type { ImageReference, ImageRegion } from "../core/wire.ts";
import { closeOnEscape, EvidenceHeader } from "./close-evidence-button.tsx";
import { sourceDetails, sourceName } from "./evidence-labels.ts";
import { highlightBoxes } from "./highlight-boxes.ts";
import { describePdfFailure } from "./pdf-load-failure.ts";

/** Loads the image a reference quotes, e.g. the browser client's `cited.image`. */
export type LoadImage = (
  messageId: string,
  referenceId: string,
  options: { signal?: AbortSignal },
) => Promise<Blob>;

export interface ImageEvidenceProps {
  reference: ImageReference & { region: ImageRegion };
  /** The stored answer that cited the reference; the host checks that the user owns it. */
  messageId: string;
  /** Backend, tenant and account of the signed-in user: a new one loads the image again. */
  authScope: string;
  loadImage: LoadImage;
  /** Shows a close button, and Escape closes. */
  onClose?(): void;
  className?: string;
}

const percent = (part: number, whole: number) => `${(part / whole) * 100}%`;

type Loaded = { state: "loading" } | { state: "ready"; url: string } | { state: "failed"; error: unknown };

/** The object URL of the loaded image while the component shows it, or why it could not be loaded. */
function useLoadedImage(load: LoadImage, messageId: string, referenceId: string, authScope: string): Loaded {
  const [loaded, setLoaded] = useState<Loaded & { key: string }>({ state: "loading", key: "" });
  const key = `${authScope}\u0000${messageId}\u0000${referenceId}`;
  useEffect(() => {
    const controller = new AbortController();
    let url: string | null = null;
    load(messageId, referenceId, { signal: controller.signal }).then(
      (blob) => {
        if (controller.signal.aborted) return;
        url = URL.createObjectURL(blob);
        setLoaded({ state: "ready", url, key });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setLoaded({ state: "failed", error, key });
      },
    );
    return () => {
      controller.abort();
      if (url !== null) URL.revokeObjectURL(url);
    };
  }, [load, messageId, referenceId, key]);
  return loaded.key === key ? loaded : { state: "loading" };
}

/**
 * @example
 * <ImageEvidence reference={reference} messageId={messageId} authScope={`host:${tenant}:${user.id}`}
 *   loadImage={cited.image} onClose={() => setOpen(null)} />
 */
export function ImageEvidence({
  reference,
  messageId,
  authScope,
  loadImage,
  onClose,
  className,
}: ImageEvidenceProps) {
  const { region } = reference;
  const loaded = useLoadedImage(loadImage, messageId, reference.id, authScope);
  const [undrawable, setUndrawable] = useState(false);
  const scroller = useRef<HTMLElement>(null);
  // In the image's own pixels, then as shares of its size: the boxes scale with the picture, no measuring.
  const boxes = highlightBoxes(region.rects, region.image_width, region.image_width).map((box) => ({
    left: percent(box.left, region.image_width),
    top: percent(box.top, region.image_height),
    width: percent(box.width, region.image_width),
    height: percent(box.height, region.image_height),
  }));
  // The cited lines sit a third of the way down the view, wherever they are on a tall image.
  const showCitedLines = (picture: HTMLImageElement) => {
    const view = scroller.current;
    const [top] = region.bbox.slice(1);
    if (view === null || top === undefined) return;
    view.scrollTop = Math.max(0, (picture.offsetHeight * top) / region.image_height - view.clientHeight / 3);
  };
  const details = sourceDetails(reference, null, null);

  return (
    <section
      tabIndex={-1}
      className={["cited-root", "cited-evidence", "cited-image", className].filter(Boolean).join(" ")}
      aria-label={sourceName(reference)}
      data-testid="cited-image-evidence"
      onKeyDown={closeOnEscape(onClose)}
    >
      <EvidenceHeader name={sourceName(reference)} details={details} onClose={onClose} />
      <blockquote className="cited-evidence__quote cited-image__quote" data-testid="cited-image-quote">
        {reference.quote}
      </blockquote>
      {loaded.state === "failed" || undrawable ? (
        <div className="cited-image__failure" role="alert" data-testid="cited-image-error">
          <p>
            {loaded.state === "failed"
              ? describePdfFailure(loaded.error, 1, "image").message
              : "This browser cannot draw this image's format; the quoted text is above."}
          </p>
        </div>
      ) : (
        <section
          ref={scroller}
          className="cited-image__scroller"
          aria-label="Cited image"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus to scroll by keyboard (WCAG 2.1.1).
          tabIndex={0}
        >
          <div
            className="cited-image__frame"
            style={{ aspectRatio: `${region.image_width} / ${region.image_height}` }}
          >
            {loaded.state === "ready" ? (
              <>
                {/* biome-ignore lint/performance/noImgElement: the SDK serves any React host, and the picture is a blob URL of a private file. */}
                <img
                  className="cited-image__picture"
                  src={loaded.url}
                  alt={`${sourceName(reference)}, with the quoted text highlighted`}
                  onLoad={(event) => showCitedLines(event.currentTarget)}
                  onError={() => setUndrawable(true)}
                />
                {boxes.map((box, index) => (
                  <div
                    // biome-ignore lint/suspicious/noArrayIndexKey: the boxes of one reference do not move.
                    key={index}
                    className="cited-image__highlight"
                    data-testid="cited-image-highlight"
                    aria-hidden="true"
                    style={{ left: box.left, top: box.top, width: box.width, height: box.height }}
                  />
                ))}
              </>
            ) : (
              <div className="cited-image__placeholder" role="status" data-testid="cited-image-loading">
                <span className="cited-spinner" aria-hidden="true" />
                Loading the image…
              </div>
            )}
          </div>
        </section>
      )}
    </section>
  );
}
