"use client";
/**
 * What the keys page does: create a key (kept here to be shown once, until dismissed), revoke one
 * after a confirmation, and the last failure of either; the server-rendered list is read again after
 * each change.
 */
import { useRouter } from "next/navigation";
import { useState } from "react";
import type { KeyCreated, KeyRecord } from "@/sdk/admin/schemas.ts";
import type { Scope } from "@/sdk/core/wire.ts";
import { consoleApi } from "./console-api";
import { type ConsoleError, consoleErrorOf } from "./error-banner";

export interface NewKey {
  name: string;
  scopes: Scope[];
}

export function useKeyActions(assistantId: string) {
  const router = useRouter();
  const [created, setCreated] = useState<KeyCreated | null>(null);
  const [revoking, setRevoking] = useState<KeyRecord | null>(null);
  const [error, setError] = useState<ConsoleError | null>(null);
  const [busy, setBusy] = useState(false);

  /** Resolves to whether the key was made, so the form is emptied only then. */
  async function create({ name, scopes }: NewKey): Promise<boolean> {
    if (scopes.length === 0) {
      setError({ message: "Pick at least one scope.", requestId: null });
      return false;
    }
    setBusy(true);
    setError(null);
    try {
      setCreated(await consoleApi.createKey(assistantId, scopes, name));
      router.refresh();
      return true;
    } catch (failure) {
      setError(consoleErrorOf(failure));
      return false;
    } finally {
      setBusy(false);
    }
  }

  async function confirmRevoke() {
    if (!revoking) return;
    setRevoking(null);
    try {
      await consoleApi.revokeKey(revoking.id);
      router.refresh();
    } catch (failure) {
      setError(consoleErrorOf(failure));
    }
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
