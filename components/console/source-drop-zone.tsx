"use client";
/**
 * Where sources are added: drop files (as many as you like) or choose them, into the datasource
 * named in its field, which offers the names already in use.
 */
import { useRef } from "react";
import { formatBytes } from "./format";
import { sourceFormats, sourceFormatsSummary } from "./source-formats";
import { useFileDrop } from "./use-file-drop";

export interface SourceDropZoneProps {
  datasource: string;
  onDatasourceChange(name: string): void;
  datasourceNames: readonly string[];
  maxUploadBytes: number;
  onFiles(files: File[]): void;
}

export function SourceDropZone({
  datasource,
  onDatasourceChange,
  datasourceNames,
  maxUploadBytes,
  onFiles,
}: SourceDropZoneProps) {
  const { dragging, dropHandlers } = useFileDrop(onFiles);
  const picker = useRef<HTMLInputElement>(null);
  return (
    <section
      aria-labelledby="add-sources"
      data-testid="source-drop-zone"
      {...dropHandlers}
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
        Drop files here, as many as you like, or choose them. The service reads {sourceFormatsSummary}; up to{" "}
        {formatBytes(maxUploadBytes)} per file.
      </p>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <label className="flex flex-col gap-1 text-sm font-medium sm:w-64">
          Datasource
          <input
            value={datasource}
            onChange={(event) => onDatasourceChange(event.currentTarget.value)}
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
            onFiles([...(event.currentTarget.files ?? [])]);
            event.currentTarget.value = "";
          }}
        />
      </div>
      <p id="datasource-help" className="text-xs text-stone-600 dark:text-stone-400">
        A datasource is a group of files; a new name makes a new one. The chat's search can filter by it.
      </p>
    </section>
  );
}
