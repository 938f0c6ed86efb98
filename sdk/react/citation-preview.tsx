"use client";
/** The card a citation shows on hover or focus: source, page, quote, how it backs the claim. */
import type { Claim } from "../core/wire.ts";
import type { NumberedReference } from "./answer-pieces.ts";
import {
  backingWords,
  type ClaimCare,
  careWords,
  referenceLocation,
  sourceDetails,
  sourceName,
} from "./evidence-labels.ts";

/** Where the card sits inside the answer, in pixels; `above` puts its bottom edge at `top`. */
export interface PreviewPosition {
  left: number;
  top: number;
  width: number;
  above: boolean;
}

export interface CitationPreviewProps {
  id: string;
  sources: NumberedReference[];
  /** Which of `sources` is shown. */
  index: number;
  claim: Claim | null;
  /** What the reader should know of the claim, or null. */
  care: ClaimCare | null;
  position: PreviewPosition;
  /** Why the source cannot open yet (the answer is still being saved), or null. */
  openHint: string | null;
  onStep(index: number): void;
  onOpen(): void;
  onPointerEnter(): void;
  onPointerLeave(): void;
  /** Focus went into the card (a click on its buttons): it stays until focus leaves it. */
  onFocusInside(): void;
  onFocusLeave(): void;
}

export function CitationPreview(props: CitationPreviewProps) {
  const { sources, index, claim, care } = props;
  const current = sources[index];
  if (current === undefined) return null;
  const { reference, number } = current;
  const details = sourceDetails(reference, referenceLocation(reference));
  const backing = claim ? backingWords(claim) : null;
  const many = sources.length > 1;

  return (
    <section
      id={props.id}
      aria-label="Source preview"
      className="cited-preview"
      data-testid="cited-preview"
      style={{
        left: props.position.left,
        top: props.position.top,
        width: props.position.width,
        transform: props.position.above ? "translateY(-100%)" : undefined,
      }}
      onMouseEnter={props.onPointerEnter}
      onMouseLeave={props.onPointerLeave}
      onFocus={props.onFocusInside}
      onBlur={(event) => {
        if (!(event.relatedTarget instanceof Node && event.currentTarget.contains(event.relatedTarget))) {
          props.onFocusLeave();
        }
      }}
    >
      <p className="cited-preview__source">
        {number === null ? null : <span className="cited-preview__number">{number}</span>}
        <span className="cited-preview__title">{sourceName(reference)}</span>
        {details ? <span className="cited-preview__location">{details}</span> : null}
      </p>
      <blockquote className="cited-preview__quote">{reference.quote}</blockquote>
      {backing ? <p className="cited-preview__support">{backing}</p> : null}
      {care ? (
        <p className="cited-preview__care" data-care={care}>
          {careWords[care].preview}
        </p>
      ) : null}
      <div className="cited-preview__actions">
        {many ? (
          <span className="cited-preview__stepper">
            <button
              type="button"
              className="cited-button cited-button--icon"
              aria-label="Previous source"
              tabIndex={-1}
              onClick={() => props.onStep((index - 1 + sources.length) % sources.length)}
            >
              ‹
            </button>
            <span aria-live="polite">
              {index + 1} / {sources.length}
            </span>
            <button
              type="button"
              className="cited-button cited-button--icon"
              aria-label="Next source"
              tabIndex={-1}
              onClick={() => props.onStep((index + 1) % sources.length)}
            >
              ›
            </button>
          </span>
        ) : null}
        {props.openHint ? (
          <span className="cited-muted">{props.openHint}</span>
        ) : (
          <button type="button" className="cited-button" tabIndex={-1} onClick={props.onOpen}>
            Open source
          </button>
        )}
      </div>
      {many ? (
        <p className="cited-sr-only">Use the left and right arrow keys for the other sources.</p>
      ) : null}
    </section>
  );
}
