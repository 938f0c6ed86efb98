"use client";
/** The question before a key is revoked: every app using it is refused from its next request. */
import type { KeyRecord } from "@/sdk/admin/schemas.ts";
import { ConfirmDialog } from "./confirm-dialog";

export function RevokeKeyDialog({
  revoking,
  onConfirm,
  onCancel,
}: {
  /** The key asked about; null while the dialog is closed. */
  revoking: KeyRecord | null;
  onConfirm(): void;
  onCancel(): void;
}) {
  return (
    <ConfirmDialog
      open={revoking !== null}
      title={`Revoke “${revoking?.name ?? revoking?.prefix ?? ""}”?`}
      confirmLabel="Revoke key"
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <p>
        Every app that uses this key gets 401 from its next request. A revoked key cannot be restored; create
        a new one and hand it to the apps that should keep working.
      </p>
    </ConfirmDialog>
  );
}
