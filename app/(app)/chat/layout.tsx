import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { ChatShell } from "@/components/chat/chat-shell";
import { assistantSources } from "@/lib/assistant-sources";
import { authScopeOf, currentUser } from "@/lib/auth";
import { serverEnvironment } from "@/lib/env";
import { pageStore } from "@/lib/page-store";
import { serviceClient } from "@/lib/service-client";

/**
 * The chat around every conversation: the list, the composer and the evidence panel. A layout
 * stays mounted while the conversation below it changes, so an answer being written, an open
 * panel and a half-typed question survive a new conversation getting its URL.
 */
export default async function ChatLayout({ children }: { children: ReactNode }) {
  const user = await currentUser();
  if (!user) redirect("/sign-in");
  const conversations = await (await pageStore(user)).listConversations(user.id);
  return (
    <ChatShell
      conversations={conversations}
      authScope={authScopeOf(user)}
      chatPath="/chat"
      sources={assistantSources(serverEnvironment().CITED_ASSISTANT_ID, serviceClient)}
      evidenceWidthClassName="lg:h-auto lg:w-[min(calc(100vw-32rem),56rem)] 2xl:w-[min(calc(100vw-50rem),60rem)]"
    >
      {children}
    </ChatShell>
  );
}
