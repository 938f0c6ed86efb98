"use client";
/**
 * The sources page's live part: drop many files at once (or pick them), each sent in its own
 * request into the datasource named above; every file is one row, grouped by datasource, from its
 * upload progress to its ingestion state; a document can be deleted.
 */
import { useState } from "react";
import type { DatasourceRecord, DocumentRecord } from "@/sdk/admin/schemas.ts";
import { DatasourceGroups } from "./datasource-groups";
import { DeleteDocumentDialog } from "./delete-document-dialog";
import { ConsoleErrorBanner } from "./error-banner";
import { groupSources } from "./group-sources";
import { SourceDropZone } from "./source-drop-zone";
import { useDocumentDeletion } from "./use-document-deletion";
import { useDocumentWatch } from "./use-document-watch";
import { useSourceUploads } from "./use-source-uploads";
import { WatchNotices } from "./watch-notices";
import { WorkSummary } from "./work-summary";

export interface SourcesManagerProps {
  assistantId: string;
  initialDocuments: DocumentRecord[];
  initialEtag: string | null;
  datasources: DatasourceRecord[];
  /** The service's limit per file (`GET /admin/v1/limits`): larger files are not sent. */
  maxUploadBytes: number;
}

export function SourcesManager({
  assistantId,
  initialDocuments,
  initialEtag,
  datasources,
  maxUploadBytes,
}: SourcesManagerProps) {
  const { documents, showAdded, showDeleted, problem, gone } = useDocumentWatch(
    assistantId,
    initialDocuments,
    initialEtag,
  );
  const { uploads, send } = useSourceUploads({ assistantId, maxUploadBytes, onSent: showAdded });
  const deletion = useDocumentDeletion(assistantId, showDeleted);
  const [datasource, setDatasource] = useState(datasources[0]?.name ?? "default");
  const groups = groupSources(datasources, documents, uploads);

  return (
    <div className="flex flex-col gap-5">
      <SourceDropZone
        datasource={datasource}
        onDatasourceChange={setDatasource}
        datasourceNames={groups.map((group) => group.name)}
        maxUploadBytes={maxUploadBytes}
        onFiles={(files) => send(files, datasource)}
      />
      <WorkSummary documents={documents} uploads={uploads} />
      {deletion.error ? (
        <ConsoleErrorBanner error={deletion.error} onDismiss={deletion.dismissError} />
      ) : null}
      <WatchNotices problem={problem} gone={gone} />
      <DatasourceGroups groups={groups} onDelete={deletion.askToDelete} />
      <DeleteDocumentDialog
        deleting={deletion.deleting}
        onConfirm={deletion.confirmDelete}
        onCancel={deletion.cancelDelete}
      />
    </div>
  );
}
