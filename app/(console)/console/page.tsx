import { AssistantList } from "@/components/console/assistant-list";
import { consoleAdminClient } from "@/lib/console/admin-client";
import { requireOperator } from "@/lib/console/operator";
import { serverEnvironment } from "@/lib/env";

/** `/console`: the service's assistants. */
export default async function AssistantsPage() {
  await requireOperator();
  const assistants = await consoleAdminClient().listAssistants();
  return (
    <>
      <div className="flex flex-col gap-1">
        <h1 className="text-2xl font-semibold">Assistants</h1>
        <p className="text-stone-700 dark:text-stone-300">
          Each assistant answers from its own sources and is reached with its own keys.
        </p>
      </div>
      <AssistantList assistants={assistants} chatAssistantId={serverEnvironment().CITED_ASSISTANT_ID} />
    </>
  );
}
