import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { z } from "zod";
import { ChatShell } from "@/components/chat/chat-shell";
import { authScopeOf, currentUser } from "@/lib/auth";
import { appStore } from "@/lib/store";

export const metadata: Metadata = { title: "Conversation · Cited" };

/** A conversation of the signed-in user; anyone else's (or none) is a 404, never a peek. */
export default async function ConversationPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await currentUser();
  if (!user) redirect("/sign-in");
  const { id } = await params;
  if (!z.guid().safeParse(id).success) notFound();
  const store = await appStore();
  const [conversations, messages] = await Promise.all([
    store.listConversations(user.id),
    store.listMessages(user.id, id),
  ]);
  if (messages === null) notFound();
  return (
    <ChatShell
      conversations={conversations}
      conversationId={id}
      messages={messages}
      authScope={authScopeOf(user)}
    />
  );
}
