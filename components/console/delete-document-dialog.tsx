"use client";
/** The question before a document is deleted: its passages leave at once and citations of it stop opening. */
import type { DocumentRecord } from "@/sdk/admin/schemas.ts";
import { ConfirmDialog } from "./confirm-dialog";

export function DeleteDocumentDialog({
  deleting,
  onConfirm,
  onCancel,
}: {
  /** The document asked about; null while the dialog is closed. */
  deleting: DocumentRecord | null;
  onConfirm(): void;
  onCancel(): void;
}) {
  return (
    <ConfirmDialog
      open={deleting !== null}
      title={`Delete “${deleting?.file_name ?? ""}”?`}
      confirmLabel="Delete document"
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <p>
        The file and its passages leave the service at once: answers stop citing it, and the chat's existing
        citations of it can no longer open its pages. Upload it again to bring it back.
      </p>
    </ConfirmDialog>
  );
}
