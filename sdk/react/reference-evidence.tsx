"use client";
/**
 * ReferenceEvidence: the evidence behind one reference, whatever its kind. PDF highlights open in
 * `PdfEvidence`, uploaded images read by OCR in `ImageEvidence` (given `loadImage`); paragraphs, tables,
 * transcripts, catalogue records and links are drawn as text; linked images and video players come from
 * the host's `renderEvidence` slot.
 */
import { type ReactNode, useEffect, useRef } from "react";
import { rowSentence } from "../core/index.ts";
import type { Reference, TextContext } from "../core/wire.ts";
import { closeOnEscape, EvidenceHeader } from "./close-evidence-button.tsx";
import { clockTime, referenceLocation, sourceDetails, sourceName } from "./evidence-labels.ts";
import { ImageEvidence, type LoadImage } from "./image-evidence.tsx";
import { PdfEvidence } from "./pdf-evidence.tsx";
import type { LoadPdf } from "./pdf-slice-cache.ts";
import type { PdfDocumentOptions } from "./pdf-slice-viewer.tsx";

/** What a host slot gets besides the reference. */
export interface EvidenceContext {
  messageId: string;
  authScope: string;
  onClose?(): void;
}

/** Draws evidence the SDK does not (images, video players); return undefined to keep the SDK's view. */
export type RenderEvidence = (reference: Reference, context: EvidenceContext) => ReactNode | undefined;

export interface ReferenceEvidenceProps {
  reference: Reference;
  messageId: string;
  authScope: string;
  loadPdf: LoadPdf;
  /** How an uploaded image is loaded; without it, an image reference shows its quote as text. */
  loadImage?: LoadImage;
  renderEvidence?: RenderEvidence;
  documentOptions?: PdfDocumentOptions;
  onClose?(): void;
  className?: string;
}

/** Rows a table shows before it says how many more there are. */
const shownRows = 50;

export function ReferenceEvidence(props: ReferenceEvidenceProps) {
  const { reference, messageId, authScope, onClose } = props;
  const custom = props.renderEvidence?.(reference, { messageId, authScope, ...(onClose ? { onClose } : {}) });
  if (custom !== undefined) return custom;
  if (reference.kind === "pdf_highlight") {
    return (
      <PdfEvidence
        reference={reference}
        messageId={messageId}
        authScope={authScope}
        loadPdf={props.loadPdf}
        {...(props.documentOptions ? { documentOptions: props.documentOptions } : {})}
        {...(onClose ? { onClose } : {})}
        {...(props.className ? { className: props.className } : {})}
      />
    );
  }
  if (reference.kind === "image" && reference.region && props.loadImage) {
    return (
      <ImageEvidence
        reference={{ ...reference, region: reference.region }}
        messageId={messageId}
        authScope={authScope}
        loadImage={props.loadImage}
        {...(onClose ? { onClose } : {})}
        {...(props.className ? { className: props.className } : {})}
      />
    );
  }
  return (
    <TextEvidenceFrame reference={reference} onClose={onClose} className={props.className}>
      <TextEvidenceBody reference={reference} />
    </TextEvidenceFrame>
  );
}

function TextEvidenceFrame({
  reference,
  onClose,
  className,
  children,
}: {
  reference: Reference;
  onClose: (() => void) | undefined;
  className: string | undefined;
  children: ReactNode;
}) {
  const location = referenceLocation(reference);
  const heading = typeof reference.metadata.heading === "string" ? reference.metadata.heading : null;
  const details = sourceDetails(reference, heading, location);
  return (
    <section
      className={["cited-root", "cited-evidence", className].filter(Boolean).join(" ")}
      aria-label={`${sourceName(reference)}${location ? `, ${location}` : ""}`}
      data-testid="cited-text-evidence"
      data-kind={reference.kind}
      onKeyDown={closeOnEscape(onClose)}
    >
      <EvidenceHeader name={sourceName(reference)} details={details} onClose={onClose} />
      {children}
    </section>
  );
}

function TextEvidenceBody({ reference }: { reference: Reference }) {
  switch (reference.kind) {
    case "table":
      return <TableEvidence columns={reference.columns} rows={reference.rows} quote={reference.quote} />;
    case "transcript_snippet":
    case "video_interval":
      return (
        <>
          <p className="cited-evidence__time">
            <span className="cited-sr-only">From </span>
            <time>{clockTime(reference.start_s)}</time>
            <span aria-hidden="true">–</span>
            <span className="cited-sr-only"> to </span>
            <time>{clockTime(reference.end_s)}</time>
          </p>
          <Quote text={reference.quote} />
          {reference.kind === "video_interval" ? (
            <SafeLink url={reference.url}>
              Open the video (the passage starts at {clockTime(reference.start_s)})
            </SafeLink>
          ) : null}
        </>
      );
    case "catalogue_record":
      return <CatalogueRecord record={reference.metadata.record} quote={reference.quote} />;
    case "external_link":
    case "image":
      return (
        <>
          {reference.context ? <InContext context={reference.context} /> : <Quote text={reference.quote} />}
          <SafeLink url={reference.url}>
            {reference.kind === "image" ? "Open the image" : "Open the page"}
          </SafeLink>
        </>
      );
    case "paragraph":
      return reference.context ? <InContext context={reference.context} /> : <Quote text={reference.quote} />;
    default:
      return <Quote text={reference.quote} />;
  }
}

function Quote({ text }: { text: string }) {
  return <blockquote className="cited-evidence__quote">{text}</blockquote>;
}

/** The cited sentences marked among their neighbours; a code block's lines as code. */
function InContext({ context }: { context: TextContext }) {
  const cited = (
    <mark className="cited-evidence__cited">{context.cited.join(context.code ? "\n" : " ")}</mark>
  );
  if (context.code) {
    return (
      <pre className="cited-evidence__code" data-testid="cited-evidence-code">
        <code>
          {context.before.map((line) => `${line}\n`).join("")}
          {cited}
          {context.after.map((line) => `\n${line}`).join("")}
        </code>
      </pre>
    );
  }
  return (
    <blockquote className="cited-evidence__quote cited-evidence__context">
      {context.before.length > 0 ? `${context.before.join(" ")} ` : null}
      {cited}
      {context.after.length > 0 ? ` ${context.after.join(" ")}` : null}
    </blockquote>
  );
}

function TableEvidence({ columns, rows, quote }: { columns: string[]; rows: string[][]; quote: string }) {
  // The quote holds the cited rows as the service reads them ("column: value; …"), a space between two.
  const cited = rows.map((row) => ` ${quote} `.includes(` ${rowSentence(columns, row)} `));
  const wrap = useRef<HTMLElement>(null);
  const firstCited = useRef<HTMLTableRowElement>(null);
  // The table scrolls to the cited row inside its own frame; the page around it stays where it is.
  useEffect(() => {
    const frame = wrap.current;
    const row = firstCited.current;
    if (frame === null || row === null) return;
    const header = frame.querySelector("thead")?.offsetHeight ?? 0;
    frame.scrollTop = row.offsetTop - header;
  }, []);
  const firstCitedIndex = cited.indexOf(true);
  return (
    <>
      <section
        ref={wrap}
        className="cited-evidence__table-wrap"
        aria-label="Cited table"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus to scroll by keyboard (WCAG 2.1.1).
        tabIndex={0}
      >
        <table className="cited-evidence__table">
          <thead>
            <tr>
              {columns.map((column, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: columns may repeat a name; their order is fixed.
                <th key={index} scope="col">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.slice(0, shownRows).map((row, rowIndex) => (
              <tr
                // biome-ignore lint/suspicious/noArrayIndexKey: rows of a cited table do not move.
                key={rowIndex}
                ref={rowIndex === firstCitedIndex ? firstCited : undefined}
                data-cited={cited[rowIndex] ? "" : undefined}
              >
                {row.map((cell, cellIndex) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: cells of a row do not move.
                  <td key={cellIndex}>
                    {cell}
                    {cited[rowIndex] && cellIndex === row.length - 1 ? (
                      <span className="cited-sr-only"> (cited)</span>
                    ) : null}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      {rows.length > shownRows ? (
        <p className="cited-muted">{rows.length - shownRows} more rows not shown.</p>
      ) : null}
    </>
  );
}

function CatalogueRecord({ record, quote }: { record: unknown; quote: string }) {
  if (record === null || typeof record !== "object" || Array.isArray(record)) return <Quote text={quote} />;
  return (
    <dl className="cited-evidence__record">
      {Object.entries(record).map(([field, value]) => (
        <div key={field} className="cited-evidence__field">
          <dt>{field}</dt>
          <dd>{typeof value === "string" ? value : JSON.stringify(value)}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Only http(s) links are drawn: a `javascript:` URL in a source must not become a clickable link. */
function SafeLink({ url, children }: { url: string | null; children: ReactNode }) {
  if (url === null || !/^https?:\/\//i.test(url)) return null;
  return (
    <a className="cited-evidence__link" href={url} target="_blank" rel="noopener noreferrer">
      {children}
      <span className="cited-sr-only"> (opens in a new tab)</span>
    </a>
  );
}
