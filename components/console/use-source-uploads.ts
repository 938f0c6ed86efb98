"use client";
/**
 * The files the browser sends, each in its own request and a few at a time: one row per file while
 * it waits, is sent or failed; a file over the service's limit is refused here and never sent. A
 * sent file's row leaves once the service has answered with its document.
 */
import { useRef, useState } from "react";
import type { DocumentRecord } from "@/sdk/admin/schemas.ts";
import { consoleErrorOf } from "./error-banner";
import { formatBytes } from "./format";
import type { UploadRow } from "./source-row";
import { uploadFile } from "./upload-file";

let uploadCount = 0;

/** Files sent at once; the rest wait, so a drop of many files neither floods the app nor splits the bandwidth thin. */
const parallelUploads = 3;

export function useSourceUploads({
  assistantId,
  maxUploadBytes,
  onSent,
}: {
  assistantId: string;
  /** The service's limit per file: larger files are not sent. */
  maxUploadBytes: number;
  /** The documents the service made of a sent file. */
  onSent(added: DocumentRecord[]): void;
}) {
  const [uploads, setUploads] = useState<UploadRow[]>([]);
  /** Uploads waiting for a free slot, first dropped first sent, and how many are being sent. */
  const waiting = useRef<Array<() => void>>([]);
  const sending = useRef(0);

  const update = (key: string, change: Partial<UploadRow>) =>
    setUploads((rows) => rows.map((row) => (row.key === key ? { ...row, ...change } : row)));

  /** Sends `files` into the datasource named `datasource` ("default" when blank). */
  function send(files: readonly File[], datasource: string) {
    const target = datasource.trim() || "default";
    for (const file of files) {
      uploadCount += 1;
      const key = `upload-${uploadCount}`;
      const row: UploadRow = {
        key,
        fileName: file.name,
        bytes: file.size,
        datasource: target,
        phase: "uploading",
        sentBytes: 0,
        error: null,
      };
      if (file.size > maxUploadBytes) {
        row.phase = "refused";
        row.error = {
          message: `${formatBytes(file.size)} is over the service's limit of ${formatBytes(maxUploadBytes)} per file, so it was not sent.`,
          requestId: null,
        };
        setUploads((rows) => [...rows, row]);
        continue;
      }
      if (sending.current >= parallelUploads) row.phase = "waiting";
      setUploads((rows) => [...rows, row]);
      const start = () => {
        sending.current += 1;
        update(key, { phase: "uploading" });
        uploadFile(assistantId, file, target, (sentBytes) => update(key, { sentBytes }))
          .then(
            (added) => {
              onSent(added);
              setUploads((rows) => rows.filter((candidate) => candidate.key !== key));
            },
            (failure: unknown) => update(key, { phase: "upload-failed", error: consoleErrorOf(failure) }),
          )
          .finally(() => {
            sending.current -= 1;
            waiting.current.shift()?.();
          });
      };
      if (row.phase === "waiting") waiting.current.push(start);
      else start();
    }
  }

  return { uploads, send };
}
