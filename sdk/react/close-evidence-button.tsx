"use client";
/** The header of an evidence view, and its × that closes it (Escape does the same, from anywhere inside it). */

/** The source's name, what else locates the evidence, and the × when the view can close. */
export function EvidenceHeader({
  name,
  details,
  onClose,
}: {
  name: string;
  details: string;
  onClose: (() => void) | undefined;
}) {
  return (
    <header className="cited-evidence__header">
      <div>
        <h3 className="cited-evidence__title">{name}</h3>
        {details ? <p className="cited-muted">{details}</p> : null}
      </div>
      {onClose ? <CloseEvidenceButton onClose={onClose} /> : null}
    </header>
  );
}

export function CloseEvidenceButton({ onClose }: { onClose(): void }) {
  return (
    <button
      type="button"
      className="cited-button cited-button--icon"
      aria-label="Close evidence"
      onClick={onClose}
    >
      ×
    </button>
  );
}

/** A keydown handler for an evidence view: Escape closes it and goes no further. */
export function closeOnEscape(onClose: (() => void) | undefined) {
  return (event: { key: string; stopPropagation(): void }) => {
    if (event.key === "Escape" && onClose) {
      event.stopPropagation();
      onClose();
    }
  };
}
