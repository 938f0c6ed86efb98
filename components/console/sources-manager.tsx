"use client";
/**
 * The sources page's live part: drop many files at once (or pick them), each sent in its own
 * request into the datasource named above; every file is one row, grouped by datasource, from its
 * upload progress to its ingestion state; a document can be deleted.
 */
import { type DragEvent, useRef, useState } from "react";
import type { DatasourceRecord, DocumentRecord } from "@/sdk/admin/schemas.ts";
import { ConfirmDialog } from "./confirm-dialog";
import { consoleApi } from "./console-api";
import { type ConsoleError, ConsoleErrorBanner, consoleErrorOf } from "./error-banner";
import { formatBytes } from "./format";
import { sourceFormats, sourceFormatsSummary } from "./source-formats";
import { DocumentRowView, type UploadRow, UploadRowView } from "./source-row";
import { uploadFile } from "./upload-file";
import { useDocumentWatch } from "./use-document-watch";
import { WorkSummary } from "./work-summary";

export interface SourcesManagerProps {
  assistantId: string;
  initialDocuments: DocumentRecord[];
  initialEtag: string | null;
  datasources: DatasourceRecord[];
  /** The service's limit per file (`GET /admin/v1/limits`): larger files are not sent. */
  maxUploadBytes: number;
}

interface Group {
  name: string;
  id: string | null;
  documents: DocumentRecord[];
  uploads: UploadRow[];
}

/** Datasources in the order the service made them, then any only a pending upload names. */
function groupsOf(
  datasources: DatasourceRecord[],
  documents: DocumentRecord[],
  uploads: UploadRow[],
): Group[] {
  const groups = new Map<string, Group>();
  const groupOf = (name: string, id: string | null) => {
    const group = groups.get(name) ?? { name, id, documents: [], uploads: [] };
    group.id ??= id;
    groups.set(name, group);
    return group;
  };
  for (const datasource of datasources) groupOf(datasource.name, datasource.id);
  for (const document of documents)
    groupOf(document.datasource, document.id_datasource).documents.push(document);
  for (const upload of uploads) {
    // The listing's long-poll can show the new document before the upload's own answer arrives: a
    // fully sent file already listed under its datasource is shown once, as the document.
    const listed =
      upload.phase === "uploading" &&
      upload.sentBytes >= upload.bytes &&
      documents.some(
        (document) => document.file_name === upload.fileName && document.datasource === upload.datasource,
      );
    if (!listed) groupOf(upload.datasource, null).uploads.push(upload);
  }
  return [...groups.values()];
}

let uploadCount = 0;

/** Files sent at once; the rest wait, so a drop of many files neither floods the app nor splits the bandwidth thin. */
const parallelUploads = 3;

export function SourcesManager({
  assistantId,
  initialDocuments,
  initialEtag,
  datasources,
  maxUploadBytes,
}: SourcesManagerProps) {
  const { documents, setDocuments, problem, gone } = useDocumentWatch(
    assistantId,
    initialDocuments,
    initialEtag,
  );
  const [uploads, setUploads] = useState<UploadRow[]>([]);
  const [dragging, setDragging] = useState(false);
  const [error, setError] = useState<ConsoleError | null>(null);
  const [deleting, setDeleting] = useState<DocumentRecord | null>(null);
  const [datasource, setDatasource] = useState(datasources[0]?.name ?? "default");
  const picker = useRef<HTMLInputElement>(null);
  /** Uploads waiting for a free slot, first dropped first sent, and how many are being sent. */
  const waiting = useRef<Array<() => void>>([]);
  const sending = useRef(0);

  const update = (key: string, change: Partial<UploadRow>) =>
    setUploads((rows) => rows.map((row) => (row.key === key ? { ...row, ...change } : row)));

  function send(files: readonly File[]) {
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
              // The listing's next change carries them too; shown at once, the row does not blink.
              setDocuments((listed) => [
                ...listed,
                ...added.filter((document) => !listed.some((known) => known.id === document.id)),
              ]);
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

  function drop(event: DragEvent<HTMLElement>) {
    event.preventDefault();
    setDragging(false);
    send([...event.dataTransfer.files]);
  }

  async function remove(document: DocumentRecord) {
    setDeleting(null);
    try {
      await consoleApi.deleteDocument(assistantId, document.id);
      setDocuments((listed) => listed.filter((candidate) => candidate.id !== document.id));
    } catch (failure) {
      setError(consoleErrorOf(failure));
    }
  }

  const groups = groupsOf(datasources, documents, uploads);
  const datasourceNames = groups.map((group) => group.name);

  return (
    <div className="flex flex-col gap-5">
      <section
        aria-labelledby="add-sources"
        data-testid="source-drop-zone"
        onDragEnter={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragOver={(event) => event.preventDefault()}
        onDragLeave={(event) => {
          const into = event.relatedTarget;
          // Leaving for one of its own children is not leaving the zone.
          if (!(into instanceof Node && event.currentTarget.contains(into))) setDragging(false);
        }}
        onDrop={drop}
        className={`flex flex-col gap-3 rounded-xl border-2 border-dashed p-4 sm:p-6 ${
          dragging
            ? "border-blue-700 bg-blue-50 dark:border-blue-400 dark:bg-blue-950"
            : "border-stone-400 bg-white dark:border-stone-600 dark:bg-stone-900"
        }`}
      >
        <h2 id="add-sources" className="text-lg font-semibold">
          Add sources
        </h2>
        <p className="text-sm text-stone-700 dark:text-stone-300">
          Drop files here, as many as you like, or choose them. The service reads {sourceFormatsSummary}; up
          to {formatBytes(maxUploadBytes)} per file.
        </p>
        <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
          <label className="flex flex-col gap-1 text-sm font-medium sm:w-64">
            Datasource
            <input
              value={datasource}
              onChange={(event) => setDatasource(event.currentTarget.value)}
              list="datasource-names"
              maxLength={200}
              aria-describedby="datasource-help"
              className="rounded-lg border border-stone-400 bg-white px-3 py-2 text-base font-normal dark:border-stone-600 dark:bg-stone-950"
            />
            <datalist id="datasource-names">
              {datasourceNames.map((name) => (
                <option key={name} value={name} />
              ))}
            </datalist>
          </label>
          <button
            type="button"
            onClick={() => picker.current?.click()}
            className="rounded-lg bg-blue-700 px-4 py-2 font-semibold text-white hover:bg-blue-800"
          >
            Choose files…
          </button>
          <input
            ref={picker}
            type="file"
            multiple
            hidden
            accept={sourceFormats.join(",")}
            data-testid="source-file-input"
            onChange={(event) => {
              send([...(event.currentTarget.files ?? [])]);
              event.currentTarget.value = "";
            }}
          />
        </div>
        <p id="datasource-help" className="text-xs text-stone-600 dark:text-stone-400">
          A datasource is a group of files; a new name makes a new one. The chat's search can filter by it.
        </p>
      </section>
      <WorkSummary documents={documents} uploads={uploads} />

      {error ? <ConsoleErrorBanner error={error} onDismiss={() => setError(null)} /> : null}
      {gone ? (
        <p role="alert" data-testid="assistant-gone" className="text-sm text-red-900 dark:text-red-200">
          This assistant no longer exists: it was deleted, perhaps in another tab. Its sources are gone too.
        </p>
      ) : null}
      {problem ? (
        <p role="status" data-testid="watch-problem" className="text-sm text-amber-900 dark:text-amber-200">
          Live updates paused: {problem.message} Trying again…
          {problem.requestId ? (
            <span className="font-mono text-xs"> (request id {problem.requestId})</span>
          ) : null}
        </p>
      ) : null}

      {groups.length === 0 ? (
        <div
          data-testid="sources-empty"
          className="rounded-xl border border-stone-300 p-8 text-center text-stone-700 dark:border-stone-700 dark:text-stone-300"
        >
          <p className="font-medium">No sources yet.</p>
          <p className="mt-1 text-sm">
            Drop the documents this assistant should answer from into the box above.
          </p>
        </div>
      ) : (
        groups.map((group) => (
          <section
            key={group.name}
            aria-label={`Datasource ${group.name}`}
            data-testid="datasource-group"
            data-datasource={group.name}
            className="overflow-hidden rounded-xl border border-stone-300 bg-white dark:border-stone-700 dark:bg-stone-900"
          >
            <header className="flex flex-wrap items-baseline gap-x-3 gap-y-0.5 border-b border-stone-300 bg-stone-100 px-3 py-2 dark:border-stone-700 dark:bg-stone-800">
              <h2 className="font-semibold">{group.name}</h2>
              {group.id ? (
                <code className="text-xs text-stone-600 dark:text-stone-400">{group.id}</code>
              ) : null}
              <span className="ml-auto text-xs text-stone-600 dark:text-stone-400">
                {group.documents.length + group.uploads.length === 1
                  ? "1 file"
                  : `${group.documents.length + group.uploads.length} files`}
              </span>
            </header>
            {group.documents.length + group.uploads.length === 0 ? (
              <p className="px-3 py-2.5 text-sm text-stone-600 dark:text-stone-400">
                No files in it any more.
              </p>
            ) : (
              <ul>
                {group.documents.map((document) => (
                  <DocumentRowView
                    key={document.id}
                    document={document}
                    onDelete={() => setDeleting(document)}
                  />
                ))}
                {group.uploads.map((upload) => (
                  <UploadRowView key={upload.key} upload={upload} />
                ))}
              </ul>
            )}
          </section>
        ))
      )}

      <ConfirmDialog
        open={deleting !== null}
        title={`Delete “${deleting?.file_name ?? ""}”?`}
        confirmLabel="Delete document"
        onConfirm={() => deleting && remove(deleting)}
        onCancel={() => setDeleting(null)}
      >
        <p>
          The file and its passages leave the service at once: answers stop citing it, and the chat's existing
          citations of it can no longer open its pages. Upload it again to bring it back.
        </p>
      </ConfirmDialog>
    </div>
  );
}
