"use client";
/**
 * CitedAnswer: one answer with its citations. Each claim ends in a numbered citation button;
 * hovering or focusing it marks the claim and previews the source, activating it opens the
 * evidence (in the host's panel through `onOpenEvidence`, or below the answer). Streaming
 * snapshots replace the text in place: what was drawn keeps its DOM nodes.
 */
import { type ReactNode, useCallback, useEffect, useId, useMemo, useRef, useState } from "react";
import type { AnswerState } from "../core/index.ts";
import type { Claim, Reference } from "../core/wire.ts";
import { AnswerNotices } from "./answer-notices.tsx";
import { type AnswerPiece, answerPieces, type ChipPiece, type NumberedReference } from "./answer-pieces.ts";
import { CitationPreview, type PreviewPosition } from "./citation-preview.tsx";
import { careWords, citationLabel, claimCares, sourceName } from "./evidence-labels.ts";
import type { LoadImage } from "./image-evidence.tsx";
import type { LoadPdf } from "./pdf-slice-cache.ts";
import type { PdfDocumentOptions } from "./pdf-slice-viewer.tsx";
import { ReferenceEvidence, type RenderEvidence } from "./reference-evidence.tsx";

/** What a citation opens: one reference, the claim it backs (if any), and the stored answer. */
export interface OpenedEvidence {
  reference: Reference;
  claim: Claim | null;
  messageId: string;
}

export interface CitedAnswerProps {
  answer: AnswerState;
  /** The stored answer's id (the `saved` update); null while it streams and is not saved yet. */
  messageId: string | null;
  /** Backend, tenant and account of the signed-in user; keys every cache of loaded evidence. */
  authScope: string;
  loadPdf: LoadPdf;
  /** How an uploaded image is loaded (`cited.image`); without it, an image reference shows its quote. */
  loadImage?: LoadImage;
  /** The answer was stopped or cut off before it ended. */
  partial?: boolean;
  /** Show evidence in the host's own place (a side panel); without it, evidence opens below the answer. */
  onOpenEvidence?(evidence: OpenedEvidence): void;
  /** What the host's place shows now (from `onOpenEvidence`): the claim it backs is marked as open. */
  openedEvidence?: OpenedEvidence | null;
  renderEvidence?: RenderEvidence;
  documentOptions?: PdfDocumentOptions;
  className?: string;
}

/** Which citation's card is open; its sources are read from the answer at each render, never copied. */
interface Preview {
  key: string;
  index: number;
  position: PreviewPosition;
  pinnedByFocus: boolean;
}

/** A citation that can be previewed and opened: a claim's button or an inline chip. */
interface Citation {
  key: string;
  sources: NumberedReference[];
  claim: Claim | null;
}

const previewWidth = 320;
const closeDelayMs = 200;

/**
 * @example
 * <CitedAnswer answer={update.answer} messageId={savedId} authScope={`app:${tenant}:${user.id}`}
 *   loadPdf={cited.pdf} onOpenEvidence={(evidence) => setPanel(evidence)} />
 */
export function CitedAnswer(props: CitedAnswerProps) {
  const { answer, messageId, onOpenEvidence } = props;
  const pieces = useMemo(() => answerPieces(answer), [answer]);
  const citations = useMemo(() => citationsOf(pieces), [pieces]);
  const cares = claimCares(Object.values(answer.claims));
  const root = useRef<HTMLDivElement>(null);
  const previewId = useId();
  const [preview, setPreview] = useState<Preview | null>(null);
  const [opened, setOpened] = useState<(OpenedEvidence & { key: string }) | null>(null);
  const closeTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const cancelClose = useCallback(() => {
    if (closeTimer.current !== null) clearTimeout(closeTimer.current);
    closeTimer.current = null;
  }, []);
  const closeSoon = useCallback(() => {
    cancelClose();
    closeTimer.current = setTimeout(
      () => setPreview((shown) => (shown?.pinnedByFocus ? shown : null)),
      closeDelayMs,
    );
  }, [cancelClose]);
  useEffect(() => cancelClose, [cancelClose]);

  // Escape closes a card opened by hover too, wherever focus is (WCAG 1.4.13: dismissible).
  const previewOpen = preview !== null;
  useEffect(() => {
    if (!previewOpen) return;
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key === "Escape") setPreview(null);
    };
    document.addEventListener("keydown", closeOnEscape);
    return () => document.removeEventListener("keydown", closeOnEscape);
  }, [previewOpen]);

  const show = (citation: Citation, anchor: HTMLElement, pinnedByFocus: boolean) => {
    cancelClose();
    if (citation.sources.length === 0 || root.current === null) return;
    const position = previewPosition(anchor, root.current);
    setPreview((shown) => ({
      key: citation.key,
      index: shown?.key === citation.key ? shown.index : 0,
      position,
      pinnedByFocus: pinnedByFocus || (shown?.key === citation.key && shown.pinnedByFocus),
    }));
  };

  // A source asked for before the answer is saved (its PDF is served only then): opened once it is.
  const [openWhenSaved, setOpenWhenSaved] = useState<{ key: string; index: number } | null>(null);

  const open = (citation: Citation, index: number) => {
    const source = citation.sources[index];
    if (source === undefined) return;
    if (messageId === null) {
      setOpenWhenSaved({ key: citation.key, index });
      return;
    }
    const evidence = { reference: source.reference, claim: citation.claim, messageId };
    setPreview(null);
    if (onOpenEvidence) onOpenEvidence(evidence);
    else setOpened({ ...evidence, key: citation.key });
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the answer gets its id; open() is read then.
  useEffect(() => {
    if (messageId === null || openWhenSaved === null) return;
    setOpenWhenSaved(null);
    const citation = citations.get(openWhenSaved.key);
    if (citation) open(citation, openWhenSaved.index);
  }, [messageId]);

  const closeEvidence = () => {
    const key = opened?.key;
    setOpened(null);
    if (key) root.current?.querySelector<HTMLElement>(`[data-citation-key="${key}"]`)?.focus();
  };

  const citationButton = (citation: Citation, variant: "claim" | "chip") => {
    const first = citation.sources[0];
    const shownIndex = preview?.key === citation.key ? preview.index : 0;
    const label = first
      ? `${citationLabel(first.reference, first.number)}${citation.sources.length > 1 ? `, and ${citation.sources.length - 1} more` : ""}`
      : "Source loading";
    return (
      <button
        type="button"
        className={`cited-cite cited-cite--${variant}`}
        data-testid="cited-citation"
        data-citation-key={citation.key}
        aria-label={label}
        aria-describedby={preview?.key === citation.key ? previewId : undefined}
        aria-disabled={first ? undefined : true}
        onMouseEnter={(event) => show(citation, event.currentTarget, false)}
        onMouseLeave={closeSoon}
        onFocus={(event) => show(citation, event.currentTarget, true)}
        onBlur={(event) => {
          // Focus moving into the card (its buttons take focus on click) keeps the card open.
          if (
            event.relatedTarget instanceof Node &&
            document.getElementById(previewId)?.contains(event.relatedTarget)
          ) {
            return;
          }
          setPreview((shown) => (shown?.key === citation.key ? null : shown));
        }}
        onClick={() => open(citation, shownIndex)}
        onKeyDown={(event) => {
          if (event.key === "Escape" && preview?.key === citation.key) {
            event.stopPropagation();
            setPreview(null);
          } else if (
            (event.key === "ArrowRight" || event.key === "ArrowLeft") &&
            citation.sources.length > 1
          ) {
            event.preventDefault();
            const step = event.key === "ArrowRight" ? 1 : -1;
            const count = citation.sources.length;
            setPreview((shown) =>
              shown?.key === citation.key ? { ...shown, index: (shown.index + step + count) % count } : shown,
            );
          }
        }}
      >
        {variant === "chip" && first ? (
          <span className="cited-cite__title">{sourceName(first.reference)}</span>
        ) : null}
        <span className="cited-cite__number">{first?.number ?? "·"}</span>
        {citation.sources.length > 1 ? (
          <span className="cited-cite__more">+{citation.sources.length - 1}</span>
        ) : null}
      </button>
    );
  };

  const previewed = preview ? citations.get(preview.key) : undefined;
  const shownElsewhere = props.openedEvidence?.messageId === messageId ? props.openedEvidence : null;
  const openClaim = opened?.claim?.n ?? shownElsewhere?.claim?.n ?? null;
  const activeKey = preview?.key ?? opened?.key ?? null;
  const renderPiece = (piece: AnswerPiece): ReactNode => {
    if (piece.kind === "text") return <span key={piece.key}>{piece.text}</span>;
    if (piece.kind === "chip") {
      return (
        <span key={piece.key}>{citationButton(citations.get(piece.key) ?? chipCitation(piece), "chip")}</span>
      );
    }
    const care = cares.get(piece.n);
    return (
      <span key={piece.key}>
        <span
          className="cited-claim"
          data-claim={piece.n}
          data-care={care}
          data-open={openClaim === piece.n ? "" : undefined}
          data-active={activeKey === piece.key ? "" : undefined}
        >
          {piece.parts.map(renderPiece)}
        </span>
        {citationButton({ key: piece.key, sources: piece.sources, claim: piece.claim }, "claim")}
      </span>
    );
  };

  const refused = answer.refusal && answer.phase === "done";
  return (
    <div
      ref={root}
      className={["cited-root", "cited-answer", props.className].filter(Boolean).join(" ")}
      data-testid="cited-answer"
      data-phase={answer.phase}
      data-refusal={refused ? "" : undefined}
    >
      <AnswerNotices answer={answer} partial={props.partial === true} refused={refused}>
        <div className="cited-answer__text" data-testid="cited-answer-text">
          {pieces.map(renderPiece)}
        </div>
        {cares.size > 0 && (answer.phase === "done" || props.partial === true) ? (
          <ul
            className="cited-answer__legend"
            aria-label="What the underlines mean"
            data-testid="cited-legend"
          >
            {[...new Set(cares.values())].map((care) => (
              <li key={care} data-care={care}>
                {careWords[care].legend}
              </li>
            ))}
          </ul>
        ) : null}
      </AnswerNotices>
      {previewed && preview ? (
        <CitationPreview
          id={previewId}
          sources={previewed.sources}
          index={Math.min(preview.index, previewed.sources.length - 1)}
          claim={previewed.claim}
          care={previewed.claim ? (cares.get(previewed.claim.n) ?? null) : null}
          position={preview.position}
          openHint={messageId === null ? "Opens once the answer is saved" : null}
          onStep={(index) => setPreview((shown) => (shown ? { ...shown, index } : shown))}
          onOpen={() => open(previewed, preview.index)}
          onPointerEnter={cancelClose}
          onPointerLeave={closeSoon}
          onFocusInside={() => setPreview((shown) => (shown ? { ...shown, pinnedByFocus: true } : shown))}
          onFocusLeave={() => setPreview(null)}
        />
      ) : null}
      {opened ? (
        <InlineEvidence key={opened.reference.id} opened={opened} props={props} onClose={closeEvidence} />
      ) : null}
    </div>
  );
}

function chipCitation(piece: ChipPiece): Citation {
  return { key: piece.key, sources: piece.source ? [piece.source] : [], claim: null };
}

/** Every citation of the answer by its key: claims' buttons and inline chips, nested ones included. */
function citationsOf(pieces: readonly AnswerPiece[]): Map<string, Citation> {
  const citations = new Map<string, Citation>();
  const visit = (piece: AnswerPiece) => {
    if (piece.kind === "chip") citations.set(piece.key, chipCitation(piece));
    if (piece.kind !== "claim") return;
    citations.set(piece.key, { key: piece.key, sources: piece.sources, claim: piece.claim });
    piece.parts.forEach(visit);
  };
  pieces.forEach(visit);
  return citations;
}

function InlineEvidence({
  opened,
  props,
  onClose,
}: {
  opened: OpenedEvidence;
  props: CitedAnswerProps;
  onClose(): void;
}) {
  const region = useRef<HTMLElement>(null);
  useEffect(() => {
    region.current?.focus();
  }, []);
  return (
    <section
      ref={region}
      className="cited-answer__evidence"
      aria-label="Evidence"
      tabIndex={-1}
      data-testid="cited-inline-evidence"
      onKeyDown={(event) => {
        if (event.key === "Escape") {
          event.stopPropagation();
          onClose();
        }
      }}
    >
      <ReferenceEvidence
        reference={opened.reference}
        messageId={opened.messageId}
        authScope={props.authScope}
        loadPdf={props.loadPdf}
        {...(props.loadImage ? { loadImage: props.loadImage } : {})}
        onClose={onClose}
        {...(props.renderEvidence ? { renderEvidence: props.renderEvidence } : {})}
        {...(props.documentOptions ? { documentOptions: props.documentOptions } : {})}
      />
    </section>
  );
}

/** Room the card needs below its citation; with less, it opens above. */
const previewRoom = 300;

/**
 * Below the citation, inside the answer and within its width; above it when the visible part of
 * the scrolling container (or the window) ends too close below.
 */
function previewPosition(anchor: HTMLElement, root: HTMLElement): PreviewPosition {
  const anchorBox = anchor.getBoundingClientRect();
  const rootBox = root.getBoundingClientRect();
  const width = Math.max(0, Math.min(previewWidth, rootBox.width - 8));
  const left = Math.min(
    Math.max(4, anchorBox.left - rootBox.left - 16),
    Math.max(4, rootBox.width - width - 4),
  );
  const visible = scrollingAncestor(root)?.getBoundingClientRect();
  const visibleTop = Math.max(0, visible?.top ?? 0);
  const visibleBottom = Math.min(window.innerHeight, visible?.bottom ?? Number.POSITIVE_INFINITY);
  const roomBelow = visibleBottom - anchorBox.bottom;
  const roomAbove = anchorBox.top - visibleTop;
  if (roomBelow < previewRoom && roomAbove > roomBelow) {
    return { left, top: anchorBox.top - rootBox.top - 6, width, above: true };
  }
  return { left, top: anchorBox.bottom - rootBox.top + 6, width, above: false };
}

function scrollingAncestor(element: HTMLElement): HTMLElement | null {
  for (let parent = element.parentElement; parent !== null; parent = parent.parentElement) {
    if (/(auto|scroll)/.test(getComputedStyle(parent).overflowY)) return parent;
  }
  return null;
}
