"use client";
/**
 * One file on the sources page: while it uploads, its progress; then its ingestion state as the
 * service reports it (queued → processing → ready | failed), pages done of pages, warnings and the
 * reason for a failure, in plain words.
 */
import type { ReactNode } from "react";
import type { DocumentRecord } from "@/sdk/admin/schemas.ts";
import type { ConsoleError } from "./error-banner";
import { formatBytes } from "./format";

/** A file the browser is sending, or did not send. */
export interface UploadRow {
  key: string;
  fileName: string;
  bytes: number;
  datasource: string;
  /** waiting: sent once an earlier upload finishes (a few go at a time). */
  phase: "waiting" | "uploading" | "refused" | "upload-failed";
  sentBytes: number;
  error: ConsoleError | null;
}

const badgeColors = {
  waiting: "border-stone-500 text-stone-700 dark:border-stone-400 dark:text-stone-300",
  uploading: "border-blue-700 text-blue-800 dark:border-blue-400 dark:text-blue-200",
  queued: "border-stone-500 text-stone-700 dark:border-stone-400 dark:text-stone-300",
  processing: "border-blue-700 text-blue-800 dark:border-blue-400 dark:text-blue-200",
  ready:
    "border-emerald-700 bg-emerald-50 text-emerald-900 dark:border-emerald-400 dark:bg-emerald-950 dark:text-emerald-100",
  failed: "border-red-700 bg-red-50 text-red-900 dark:border-red-400 dark:bg-red-950 dark:text-red-100",
  refused: "border-red-700 bg-red-50 text-red-900 dark:border-red-400 dark:bg-red-950 dark:text-red-100",
  "upload-failed":
    "border-red-700 bg-red-50 text-red-900 dark:border-red-400 dark:bg-red-950 dark:text-red-100",
} as const;

const badgeLabels: Record<keyof typeof badgeColors, string> = {
  waiting: "Waiting",
  uploading: "Uploading",
  queued: "Queued",
  processing: "Processing",
  ready: "Ready",
  failed: "Failed",
  refused: "Not sent",
  "upload-failed": "Upload failed",
};

function Badge({ state }: { state: keyof typeof badgeColors }) {
  return (
    <span
      data-testid="source-state"
      className={`shrink-0 rounded-full border px-2 py-0.5 text-xs font-semibold ${badgeColors[state]}`}
    >
      {badgeLabels[state]}
    </span>
  );
}

function ProgressBar({ label, value, max }: { label: string; value: number; max: number }) {
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={max}
      aria-valuenow={value}
      className="h-1.5 w-full overflow-hidden rounded-full bg-stone-200 dark:bg-stone-800"
    >
      <div
        className="h-full rounded-full bg-blue-700 transition-[width] dark:bg-blue-400"
        style={{ width: `${max > 0 ? Math.round((value / max) * 100) : 0}%` }}
      />
    </div>
  );
}

function RowFrame({
  fileName,
  state,
  children,
  action,
}: {
  fileName: string;
  state: keyof typeof badgeColors;
  children: ReactNode;
  action?: ReactNode;
}) {
  return (
    <li
      data-testid="source-row"
      data-file-name={fileName}
      data-state={state}
      className="flex flex-col gap-1.5 border-t border-stone-200 px-3 py-2.5 first:border-t-0 dark:border-stone-800"
    >
      <div className="flex items-center gap-2">
        <span className="min-w-0 flex-1 truncate font-medium" title={fileName}>
          {fileName}
        </span>
        <Badge state={state} />
        {action}
      </div>
      {children}
    </li>
  );
}

export function UploadRowView({ upload }: { upload: UploadRow }) {
  if (upload.phase === "waiting") {
    return (
      <RowFrame fileName={upload.fileName} state="waiting">
        <p data-testid="source-detail" className="text-xs text-stone-600 dark:text-stone-400">
          Waiting to upload until an earlier file is sent · {formatBytes(upload.bytes)}
        </p>
      </RowFrame>
    );
  }
  if (upload.phase === "uploading") {
    const percent = upload.bytes > 0 ? Math.floor((upload.sentBytes / upload.bytes) * 100) : 0;
    return (
      <RowFrame fileName={upload.fileName} state="uploading">
        <ProgressBar label={`Uploading ${upload.fileName}`} value={upload.sentBytes} max={upload.bytes} />
        <p data-testid="source-detail" className="text-xs text-stone-600 dark:text-stone-400">
          Uploading {percent}% of {formatBytes(upload.bytes)}
        </p>
      </RowFrame>
    );
  }
  return (
    <RowFrame fileName={upload.fileName} state={upload.phase}>
      <p data-testid="source-detail" className="text-sm text-red-800 dark:text-red-300">
        {upload.error?.message}
      </p>
      {upload.error?.requestId ? (
        <p className="font-mono text-xs text-stone-600 dark:text-stone-400">
          Request id: {upload.error.requestId}
        </p>
      ) : null}
    </RowFrame>
  );
}

/** How much of a ready document is found by meaning too, once the service's model has begun on it. */
function meaningDetail(document: DocumentRecord): string {
  const { passages, passages_embedded: embedded } = document;
  if (embedded === undefined || passages === undefined) return "";
  return embedded >= passages
    ? " · by meaning too"
    : ` · by meaning: ${embedded} of ${passages} ${passages === 1 ? "passage" : "passages"}`;
}

function ingestionDetail(document: DocumentRecord): string {
  const pages = document.pages;
  switch (document.status) {
    case "queued":
      return `Waiting to be read · ${formatBytes(document.bytes)}`;
    case "processing":
      return pages !== undefined && pages > 0
        ? `Reading page ${document.pages_done ?? 0} of ${pages}`
        : "Reading the file…";
    case "ready": {
      const parts = [
        pages !== undefined ? `${pages} ${pages === 1 ? "page" : "pages"}` : null,
        document.passages !== undefined
          ? `${document.passages} ${document.passages === 1 ? "passage" : "passages"}`
          : null,
        formatBytes(document.bytes),
      ];
      return `Searchable · ${parts.filter((part) => part !== null).join(" · ")}${meaningDetail(document)}`;
    }
    case "failed":
      return document.error ?? "The service could not read this file.";
  }
}

export function DocumentRowView({ document, onDelete }: { document: DocumentRecord; onDelete(): void }) {
  const pagesKnown = document.status === "processing" && document.pages !== undefined && document.pages > 0;
  return (
    <RowFrame
      fileName={document.file_name}
      state={document.status}
      action={
        <button
          type="button"
          onClick={onDelete}
          aria-label={`Delete ${document.file_name}`}
          className="shrink-0 rounded-lg border border-stone-400 px-2 py-0.5 text-xs hover:border-red-700 hover:text-red-800 dark:border-stone-600 dark:hover:text-red-300"
        >
          Delete
        </button>
      }
    >
      {pagesKnown ? (
        <ProgressBar
          label={`Reading ${document.file_name}`}
          value={document.pages_done ?? 0}
          max={document.pages ?? 0}
        />
      ) : null}
      <p
        data-testid="source-detail"
        className={`text-sm ${document.status === "failed" ? "text-red-800 dark:text-red-300" : "text-stone-600 dark:text-stone-400"}`}
      >
        {ingestionDetail(document)}
      </p>
      {document.warnings && document.warnings.length > 0 ? (
        <ul
          data-testid="source-warnings"
          className="flex flex-col gap-0.5 text-xs text-amber-900 dark:text-amber-200"
        >
          {document.warnings.map((warning) => (
            <li key={warning}>⚠ {warning}</li>
          ))}
        </ul>
      ) : null}
    </RowFrame>
  );
}
