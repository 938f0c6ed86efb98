"use client";
/**
 * What the keys page does: create a key (kept here to be shown once, until dismissed), revoke one
 * after a confirmation, and the last failure of either; the server-rendered list is read again after
 * each change.
 */
import { useState } from "react";
import type { KeyCreated, KeyRecord } from "@/sdk/admin/schemas.ts";
import type { Scope } from "@/sdk/core/wire.ts";
import { consoleApi } from "./console-api";
import { useConsoleAction } from "./use-console-action";

export interface NewKey {
  name: string;
  scopes: Scope[];
}

export function useKeyActions(assistantId: string) {
  const { busy, error, setError, run } = useConsoleAction();
  const [created, setCreated] = useState<KeyCreated | null>(null);
  const [revoking, setRevoking] = useState<KeyRecord | null>(null);

  /** Resolves to whether the key was made, so the form is emptied only then. */
  async function create({ name, scopes }: NewKey): Promise<boolean> {
    if (scopes.length === 0) {
      setError({ message: "Pick at least one scope.", requestId: null });
      return false;
    }
    return run(async () => setCreated(await consoleApi.createKey(assistantId, scopes, name)));
  }

  async function confirmRevoke() {
    if (!revoking) return;
    const key = revoking;
    setRevoking(null);
    await run(() => consoleApi.revokeKey(key.id));
  }

  return {
    created,
    dismissCreated: () => setCreated(null),
    busy,
    create,
    revoking,
    askToRevoke: setRevoking,
    cancelRevoke: () => setRevoking(null),
    confirmRevoke,
    error,
    dismissError: () => setError(null),
  };
}
