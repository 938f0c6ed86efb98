"use client";
/**
 * An assistant's documents as they change: the listing's long-poll (`If-None-Match` + `Prefer:
 * wait=25`) answers when anything changes, progress included, so there is no timer. After a failure
 * it tries again, waiting longer each time, and says that the view may be out of date.
 */
import { useEffect, useState } from "react";
import type { DocumentRecord } from "@/sdk/admin/schemas.ts";
import { CitedApiError } from "@/sdk/core/index.ts";
import { consoleApi } from "./console-api";
import { type ConsoleError, consoleErrorOf } from "./error-banner";

/** A listing without an ETag cannot be held, so it comes back at once: ask again at this gentle pace. */
const pollWithoutEtagMs = 1_000;

function pause(milliseconds: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", stop);
      resolve();
    }, milliseconds);
    signal.addEventListener("abort", stop, { once: true });
  });
}

export function useDocumentWatch(
  assistantId: string,
  initialDocuments: DocumentRecord[],
  initialEtag: string | null,
) {
  const [documents, setDocuments] = useState(initialDocuments);
  const [problem, setProblem] = useState<ConsoleError | null>(null);
  /** The assistant was deleted while the page was open: nothing more will come, so the watch stops. */
  const [gone, setGone] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;
    let etag = initialEtag;
    (async () => {
      let failures = 0;
      while (!signal.aborted) {
        try {
          // After a failure the first try is not held, so the page learns at once that the service is back.
          const next = await consoleApi.watchDocuments(assistantId, etag, signal, failures > 0 ? 0 : 25);
          etag = next.etag;
          if (next.documents) setDocuments(next.documents);
          failures = 0;
          setProblem(null);
          if (etag === null) await pause(pollWithoutEtagMs, signal);
        } catch (error) {
          if (signal.aborted) return;
          if (CitedApiError.isInstance(error) && error.status === 404) {
            setProblem(null);
            setGone(true);
            return;
          }
          failures += 1;
          setProblem(consoleErrorOf(error));
          await pause(Math.min(30_000, 1_000 * 2 ** failures), signal);
        }
      }
    })();
    return () => controller.abort();
  }, [assistantId, initialEtag]);

  /** A sent file's documents, shown at once: the listing's next change carries them too, so the row does not blink. */
  const showAdded = (added: readonly DocumentRecord[]) =>
    setDocuments((listed) => [
      ...listed,
      ...added.filter((document) => !listed.some((known) => known.id === document.id)),
    ]);
  const showDeleted = (documentId: string) =>
    setDocuments((listed) => listed.filter((candidate) => candidate.id !== documentId));

  return { documents, showAdded, showDeleted, problem, gone };
}
