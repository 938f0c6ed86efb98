"use client";
/** A modal question before something that cannot be undone: what is lost, then Cancel or the action. */
import { type ReactNode, useEffect, useId, useRef } from "react";

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  /** What is lost, in plain words. */
  children: ReactNode;
  confirmLabel: string;
  onConfirm(): void;
  onCancel(): void;
}

export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);
  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      data-testid="confirm-dialog"
      onClose={onCancel}
      className="m-auto w-[calc(100%-2rem)] max-w-md rounded-xl border border-stone-300 bg-white p-5 text-stone-900 backdrop:bg-black/50 dark:border-stone-700 dark:bg-stone-900 dark:text-stone-100"
    >
      <h2 id={titleId} className="text-lg font-semibold">
        {title}
      </h2>
      <div className="mt-2 flex flex-col gap-2 text-sm text-stone-700 dark:text-stone-300">{children}</div>
      <div className="mt-5 flex flex-wrap justify-end gap-2">
        <button
          type="button"
          onClick={onCancel}
          className="rounded-lg border border-stone-400 px-3 py-1.5 dark:border-stone-600"
        >
          Cancel
        </button>
        <button
          type="button"
          onClick={onConfirm}
          className="rounded-lg bg-red-700 px-3 py-1.5 font-semibold text-white hover:bg-red-800"
        >
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
