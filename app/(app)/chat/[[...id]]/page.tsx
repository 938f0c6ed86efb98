import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { z } from "zod";
import { ConversationView } from "@/components/chat/conversation-view";
import { currentUser } from "@/lib/auth";
import { pageStore } from "@/lib/page-store";

export const metadata: Metadata = { title: "Chat · Cited" };

/** `/chat` (a new conversation) or `/chat/{id}`: one of the user's; anyone else's, or none, is a 404. */
export default async function ChatPage({ params }: { params: Promise<{ id?: string[] }> }) {
  const user = await currentUser();
  if (!user) redirect("/sign-in");
  const { id: segments = [] } = await params;
  const [id, ...rest] = segments;
  if (rest.length > 0 || (id !== undefined && !z.guid().safeParse(id).success)) notFound();
  const messages = id === undefined ? [] : await (await pageStore(user)).listMessages(user.id, id);
  if (messages === null) notFound();
  return <ConversationView conversationId={id ?? null} messages={messages} />;
}
