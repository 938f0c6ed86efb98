import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { ChatShell } from "@/components/chat/chat-shell";
import { NewChatProvider } from "@/components/new-chat-link";
import { assistantSources } from "@/lib/assistant-sources";
import { authScopeOf } from "@/lib/auth";
import { requireOperator } from "@/lib/console/operator";
import { trialChatPath, trialClient, trialStore, trialUserId } from "@/lib/console/trial";
import { assistantIdSchema } from "@/sdk/core/wire.ts";

/** The Try tab's chat: the app's own chat, on the operator's test conversations with this assistant. */
export default async function TryChatLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ assistant: string }>;
}) {
  const operator = await requireOperator();
  const assistant = assistantIdSchema.safeParse((await params).assistant);
  if (!assistant.success) notFound();
  const conversations = await (await trialStore()).listConversations(
    trialUserId(assistant.data, operator.id),
  );
  return (
    <NewChatProvider>
      <div className="h-[calc(100dvh-24rem)] min-h-[28rem] overflow-hidden rounded-xl border border-stone-300 bg-white dark:border-stone-700 dark:bg-stone-900">
        <ChatShell
          conversations={conversations}
          authScope={`${authScopeOf(operator)}:try`}
          chatPath={trialChatPath(assistant.data)}
          sources={assistantSources(assistant.data, () => trialClient(assistant.data))}
          evidenceWidthClassName="lg:h-auto lg:w-[30rem]"
        >
          {children}
        </ChatShell>
      </div>
    </NewChatProvider>
  );
}
