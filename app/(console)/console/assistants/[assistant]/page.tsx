import { SearchModeNotice } from "@/components/console/search-mode-notice";
import { SourcesManager } from "@/components/console/sources-manager";
import { consoleAdminClient } from "@/lib/console/admin-client";
import { assistantOr404 } from "@/lib/console/assistant";
import { requireOperator } from "@/lib/console/operator";

/** An assistant's sources: drop files into a datasource and watch each become searchable. */
export default async function SourcesPage({ params }: { params: Promise<{ assistant: string }> }) {
  await requireOperator();
  const assistant = await assistantOr404(params);
  const admin = consoleAdminClient();
  const [listing, datasources, limits, status] = await Promise.all([
    admin.watchDocuments(assistant.id, { etag: null, waitSeconds: 0, signal: AbortSignal.timeout(30_000) }),
    admin.listDatasources(assistant.id),
    admin.limits(),
    admin.status(),
  ]);
  return (
    <>
      <SearchModeNotice status={status} />
      <SourcesManager
        assistantId={assistant.id}
        initialDocuments={listing.changed ? listing.documents : []}
        initialEtag={listing.changed ? listing.etag : null}
        datasources={datasources}
        maxUploadBytes={limits.max_upload_bytes}
      />
    </>
  );
}
