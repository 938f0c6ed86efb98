/**
 * One line under the drop zone while files are sent or read: how many, and the one furthest along,
 * so progress shows where the files were dropped (on a phone the rows are far below).
 */
import type { DocumentRecord } from "@/sdk/admin/schemas.ts";
import type { UploadRow } from "./source-row";

export function WorkSummary({
  documents,
  uploads,
}: {
  documents: readonly DocumentRecord[];
  uploads: readonly UploadRow[];
}) {
  const sending = uploads.filter((upload) => upload.phase === "uploading" || upload.phase === "waiting");
  const reading = documents.filter(
    (document) => document.status === "queued" || document.status === "processing",
  );
  if (sending.length + reading.length === 0) return null;
  const parts = [
    sending.length > 0 ? `sending ${count(sending.length)}` : null,
    reading.length > 0 ? `reading ${count(reading.length)}` : null,
  ].filter(Boolean);
  const furthest = reading
    .filter((document) => (document.pages ?? 0) > 0)
    .sort((a, b) => (b.pages_done ?? 0) / (b.pages ?? 1) - (a.pages_done ?? 0) / (a.pages ?? 1))[0];
  return (
    // Not a live region: it changes with every page read; each row says when its file is ready.
    <p data-testid="work-summary" className="text-sm text-stone-700 dark:text-stone-300">
      {capitalised(parts.join(", "))}
      {furthest ? `: ${furthest.file_name} at page ${furthest.pages_done ?? 0} of ${furthest.pages}` : ""}.
      Each file's progress is in its row below.
    </p>
  );
}

const count = (files: number) => (files === 1 ? "1 file" : `${files} files`);
const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
