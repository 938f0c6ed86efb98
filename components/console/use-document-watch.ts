"use client";
/**
 * An assistant's documents as they change: the listing's long-poll (`If-None-Match` + `Prefer:
 * wait=25`) answers when anything changes, progress included, so there is no timer. After a failure
 * it tries again, waiting longer each time, and says that the view may be out of date.
 */
import { useEffect, useState } from "react";
import type { DocumentRecord } from "@/sdk/core/index.ts";
import { consoleApi } from "./console-api";
import { type ConsoleError, consoleErrorOf } from "./error-banner";

function pause(milliseconds: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, milliseconds);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

export function useDocumentWatch(
  assistantId: string,
  initialDocuments: DocumentRecord[],
  initialEtag: string | null,
) {
  const [documents, setDocuments] = useState(initialDocuments);
  const [problem, setProblem] = useState<ConsoleError | null>(null);

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
        } catch (error) {
          if (signal.aborted) return;
          failures += 1;
          setProblem(consoleErrorOf(error));
          await pause(Math.min(30_000, 1_000 * 2 ** failures), signal);
        }
      }
    })();
    return () => controller.abort();
  }, [assistantId, initialEtag]);

  return { documents, setDocuments, problem };
}
