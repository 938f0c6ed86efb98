"use client";
/**
 * A console change as a person sees it: busy while it runs, its failure kept to show, and the
 * server-rendered page read again once it is done.
 */
import { useRouter } from "next/navigation";
import { useState } from "react";
import { type ConsoleError, consoleErrorOf } from "./error-banner";

export function useConsoleAction() {
  const router = useRouter();
  const [error, setError] = useState<ConsoleError | null>(null);
  const [busy, setBusy] = useState(false);

  /** Resolves to whether the change was made. */
  async function run(action: () => Promise<unknown>): Promise<boolean> {
    setBusy(true);
    setError(null);
    try {
      await action();
      router.refresh();
      return true;
    } catch (failure) {
      setError(consoleErrorOf(failure));
      return false;
    } finally {
      setBusy(false);
    }
  }

  return { busy, error, setError, run };
}
