/** The sources page's rows, grouped by datasource. */
import type { DatasourceRecord, DocumentRecord } from "@/sdk/admin/schemas.ts";
import type { UploadRow } from "./source-row";

export interface SourceGroup {
  name: string;
  /** Null for a datasource only a pending upload names: the service has not made it yet. */
  id: string | null;
  documents: DocumentRecord[];
  uploads: UploadRow[];
}

/** Datasources in the order the service made them, then any only a pending upload names. */
export function groupSources(
  datasources: readonly DatasourceRecord[],
  documents: readonly DocumentRecord[],
  uploads: readonly UploadRow[],
): SourceGroup[] {
  const groups = new Map<string, SourceGroup>();
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
