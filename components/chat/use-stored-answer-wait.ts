"use client";
/**
 * A turn whose answer the page does not hold yet: the answer may still be on its way (the page was reloaded
 * while it was written, or Stop was pressed, and the app saves what had arrived a moment later), or there is
 * none (the service failed). The page is read again a few times before giving up.
 */
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";

/** When to read the page again; saving an interrupted answer takes well under a second. */
export const readAgainAtMs = [1_000, 3_000, 6_000];
export const giveUpAtMs = 8_000;

export type StoredAnswerWait = "waiting" | "none";

/**
 * While `turnKey` names a turn whose answer the page does not hold, reads the page again now and then;
 * "none" once it has stopped looking. Null when there is no such turn.
 */
export function useStoredAnswerWait(turnKey: string | null): StoredAnswerWait | null {
  const router = useRouter();
  const [gaveUpOn, setGaveUpOn] = useState<string | null>(null);
  useEffect(() => {
    if (turnKey === null) return;
    const timers = readAgainAtMs.map((ms) => setTimeout(() => router.refresh(), ms));
    timers.push(setTimeout(() => setGaveUpOn(turnKey), giveUpAtMs));
    return () => {
      for (const timer of timers) clearTimeout(timer);
    };
  }, [turnKey, router]);
  if (turnKey === null) return null;
  return gaveUpOn === turnKey ? "none" : "waiting";
}
