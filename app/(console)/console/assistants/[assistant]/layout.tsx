import Link from "next/link";
import type { ReactNode } from "react";
import { AssistantTabs } from "@/components/console/assistant-tabs";
import { assistantOr404 } from "@/lib/console/assistant";
import { requireOperator } from "@/lib/console/operator";

/** One assistant: its name and id, then its sources, keys or share settings. */
export default async function AssistantLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ assistant: string }>;
}) {
  await requireOperator();
  const assistant = await assistantOr404(params);
  return (
    <>
      <div className="flex flex-col gap-1">
        <Link
          href="/console"
          className="text-sm text-blue-800 underline-offset-2 hover:underline dark:text-blue-300"
        >
          ← Assistants
        </Link>
        <h1 className="text-2xl font-semibold break-words" data-testid="assistant-name">
          {assistant.name}
        </h1>
        <code className="text-xs text-stone-600 dark:text-stone-400">{assistant.id}</code>
      </div>
      <AssistantTabs assistantId={assistant.id} />
      {children}
    </>
  );
}
