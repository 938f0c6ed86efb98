import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { z } from "zod";
import { ChatShell } from "@/components/chat/chat-shell";
import { authScopeOf, currentUser } from "@/lib/auth";
import { appStore } from "@/lib/store";

export const metadata: Metadata = { title: "Chat · Cited" };

/**
 * `/chat` (a new conversation) and `/chat/{id}` (one of the signed-in user's; anyone else's, or
 * none, is a 404). One page for both, so the chat stays mounted when a new conversation gets its id.
 */
export default async function ChatPage({ params }: { params: Promise<{ id?: string[] }> }) {
  const user = await currentUser();
  if (!user) redirect("/sign-in");
  const { id: segments = [] } = await params;
  const [id, ...rest] = segments;
  if (rest.length > 0 || (id !== undefined && !z.guid().safeParse(id).success)) notFound();
  const store = await appStore();
  const [conversations, messages] = await Promise.all([
    store.listConversations(user.id),
    id === undefined ? Promise.resolve([]) : store.listMessages(user.id, id),
  ]);
  if (messages === null) notFound();
  return (
    <ChatShell
      conversations={conversations}
      conversationId={id ?? null}
      messages={messages}
      authScope={authScopeOf(user)}
    />
  );
}
