"use client";
/** The × that closes an evidence view (Escape does the same, from anywhere inside it). */
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
