"use client";
/**
 * An assistant's API keys: create one with the scopes ask and/or rag (the key is shown once, here,
 * with a copy button), see when each was made and last used, revoke one (its next request is 401).
 */
import type { KeyRecord } from "@/sdk/admin/schemas.ts";
import { CreatedKeyNotice } from "./created-key-notice";
import { ConsoleErrorBanner } from "./error-banner";
import { KeyList } from "./key-list";
import { NewKeyForm } from "./new-key-form";
import { RevokeKeyDialog } from "./revoke-key-dialog";
import { useKeyActions } from "./use-key-actions";

export function KeyManager({ assistantId, keys }: { assistantId: string; keys: KeyRecord[] }) {
  const actions = useKeyActions(assistantId);
  return (
    <div className="flex flex-col gap-5">
      <NewKeyForm busy={actions.busy} onCreate={actions.create} />
      {actions.created ? (
        <CreatedKeyNotice secret={actions.created.key} onDismiss={actions.dismissCreated} />
      ) : null}
      {actions.error ? <ConsoleErrorBanner error={actions.error} onDismiss={actions.dismissError} /> : null}
      <KeyList keys={keys} onRevoke={actions.askToRevoke} />
      <RevokeKeyDialog
        revoking={actions.revoking}
        onConfirm={actions.confirmRevoke}
        onCancel={actions.cancelRevoke}
      />
    </div>
  );
}
