"use client";
/**
 * A conversation whose last stored turn is a question without its answer: the answer may still be on its
 * way (the page was reloaded while it was written, and the app saves what had arrived a moment later), or
 * there is none (the service failed). The page is read again a few times before saying there is none.
 */
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";

/** When to read the page again after it showed the question unanswered; saving an interrupted answer takes well under a second. */
const readAgainAtMs = [1_000, 3_000, 6_000];
const giveUpAtMs = 8_000;

export type StoredAnswerWait = "waiting" | "none";

/**
 * While the conversation `unansweredId` shows a question without an answer, reads the page again now and
 * then; "none" once it has stopped looking. Null when every question shown has its answer.
 */
export function useStoredAnswerWait(unansweredId: string | null): StoredAnswerWait | null {
  const router = useRouter();
  const [gaveUpOn, setGaveUpOn] = useState<string | null>(null);
  useEffect(() => {
    if (unansweredId === null) return;
    const timers = readAgainAtMs.map((ms) => setTimeout(() => router.refresh(), ms));
    timers.push(setTimeout(() => setGaveUpOn(unansweredId), giveUpAtMs));
    return () => {
      for (const timer of timers) clearTimeout(timer);
    };
  }, [unansweredId, router]);
  if (unansweredId === null) return null;
  return gaveUpOn === unansweredId ? "none" : "waiting";
}
