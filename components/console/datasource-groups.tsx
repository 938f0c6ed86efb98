"use client";
/** The sources page's files, a section per datasource, or what to do when there are none. */
import type { DocumentRecord } from "@/sdk/admin/schemas.ts";
import type { SourceGroup } from "./group-sources";
import { DocumentRowView, UploadRowView } from "./source-row";

export function DatasourceGroups({
  groups,
  onDelete,
}: {
  groups: readonly SourceGroup[];
  onDelete(document: DocumentRecord): void;
}) {
  if (groups.length === 0) {
    return (
      <div
        data-testid="sources-empty"
        className="rounded-xl border border-stone-300 p-8 text-center text-stone-700 dark:border-stone-700 dark:text-stone-300"
      >
        <p className="font-medium">No sources yet.</p>
        <p className="mt-1 text-sm">
          Drop the documents this assistant should answer from into the box above.
        </p>
      </div>
    );
  }
  return groups.map((group) => <DatasourceGroup key={group.name} group={group} onDelete={onDelete} />);
}

function DatasourceGroup({
  group,
  onDelete,
}: {
  group: SourceGroup;
  onDelete(document: DocumentRecord): void;
}) {
  const files = group.documents.length + group.uploads.length;
  return (
    <section
      aria-label={`Datasource ${group.name}`}
      data-testid="datasource-group"
      data-datasource={group.name}
      className="overflow-hidden rounded-xl border border-stone-300 bg-white dark:border-stone-700 dark:bg-stone-900"
    >
      <header className="flex flex-wrap items-baseline gap-x-3 gap-y-0.5 border-b border-stone-300 bg-stone-100 px-3 py-2 dark:border-stone-700 dark:bg-stone-800">
        <h2 className="font-semibold">{group.name}</h2>
        {group.id ? <code className="text-xs text-stone-600 dark:text-stone-400">{group.id}</code> : null}
        <span className="ml-auto text-xs text-stone-600 dark:text-stone-400">
          {files === 1 ? "1 file" : `${files} files`}
        </span>
      </header>
      {files === 0 ? (
        <p className="px-3 py-2.5 text-sm text-stone-600 dark:text-stone-400">No files in it any more.</p>
      ) : (
        <ul>
          {group.documents.map((document) => (
            <DocumentRowView key={document.id} document={document} onDelete={() => onDelete(document)} />
          ))}
          {group.uploads.map((upload) => (
            <UploadRowView key={upload.key} upload={upload} />
          ))}
        </ul>
      )}
    </section>
  );
}
