import { ShareSettings } from "@/components/console/share-settings";
import { consoleAdminClient } from "@/lib/console/admin-client";
import { assistantOr404 } from "@/lib/console/assistant";
import { requireOperator } from "@/lib/console/operator";

/** What a host app needs to use the assistant: its id, the base URL, an env block and the SDK wiring. */
export default async function SharePage({ params }: { params: Promise<{ assistant: string }> }) {
  await requireOperator();
  const assistant = await assistantOr404(params);
  const admin = consoleAdminClient();
  const [share, datasources] = await Promise.all([
    admin.share(assistant.id),
    admin.listDatasources(assistant.id),
  ]);
  return <ShareSettings share={share} datasources={datasources} />;
}
