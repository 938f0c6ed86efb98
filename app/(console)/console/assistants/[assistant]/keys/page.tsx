import { KeyManager } from "@/components/console/key-manager";
import { consoleAdminClient } from "@/lib/console/admin-client";
import { assistantOr404 } from "@/lib/console/assistant";
import { requireOperator } from "@/lib/console/operator";

/** An assistant's API keys. */
export default async function KeysPage({ params }: { params: Promise<{ assistant: string }> }) {
  await requireOperator();
  const assistant = await assistantOr404(params);
  const keys = await consoleAdminClient().listKeys(assistant.id);
  return <KeyManager assistantId={assistant.id} keys={keys} />;
}
