"use client";
/** The evidence of the citation opened last: a column beside the chat on wide screens, a full-height sheet on phones. */
import { useEffect, useRef } from "react";
import { useCited } from "@/components/cited-browser-provider";
import { type LoadImage, type LoadPdf, type OpenedEvidence, ReferenceEvidence } from "@/sdk/react/index.ts";

export interface EvidencePanelProps {
  evidence: OpenedEvidence;
  authScope: string;
  onClose(): void;
  /** Its size on wide screens, where it is a column (e.g. `lg:w-[40rem]`). */
  wideClassName: string;
  /** How a PDF page is loaded; default an answer's reference through the route (`cited.pdf`). */
  loadPdf?: LoadPdf;
  /** How an image is loaded; default an answer's reference through the route (`cited.image`). */
  loadImage?: LoadImage;
}

export function EvidencePanel({
  evidence,
  authScope,
  onClose,
  wideClassName,
  loadPdf,
  loadImage,
}: EvidencePanelProps) {
  const cited = useCited();
  const panel = useRef<HTMLElement>(null);
  // Focus moves into the panel, and back to what opened it (the citation) when it closes.
  useEffect(() => {
    const opener = document.activeElement;
    panel.current?.focus();
    return () => {
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
    };
  }, []);
  return (
    <>
      <button
        type="button"
        aria-hidden="true"
        tabIndex={-1}
        onClick={onClose}
        className="fixed inset-0 z-30 bg-black/40 lg:hidden"
      />
      <aside
        ref={panel}
        tabIndex={-1}
        aria-label="Evidence"
        data-testid="evidence-panel"
        onKeyDown={(event) => {
          if (event.key === "Escape") onClose();
        }}
        className={`fixed inset-0 z-40 h-dvh bg-stone-50 p-2 shadow-2xl [--cited-pdf-height:100%] focus:outline-none lg:static lg:z-auto lg:shrink-0 ${wideClassName} lg:rounded-none lg:border-l lg:border-stone-300 lg:shadow-none dark:bg-stone-950 lg:dark:border-stone-800`}
      >
        <ReferenceEvidence
          key={`${evidence.messageId}:${evidence.reference.id}`}
          reference={evidence.reference}
          messageId={evidence.messageId}
          authScope={authScope}
          loadPdf={loadPdf ?? cited.pdf}
          loadImage={loadImage ?? cited.image}
          onClose={onClose}
          className="h-full"
        />
      </aside>
    </>
  );
}
