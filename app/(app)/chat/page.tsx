import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { ChatShell } from "@/components/chat/chat-shell";
import { authScopeOf, currentUser } from "@/lib/auth";
import { appStore } from "@/lib/store";

export const metadata: Metadata = { title: "New conversation · Cited" };

export default async function NewChatPage() {
  const user = await currentUser();
  if (!user) redirect("/sign-in");
  const conversations = await (await appStore()).listConversations(user.id);
  return (
    <ChatShell
      conversations={conversations}
      conversationId={null}
      messages={[]}
      authScope={authScopeOf(user)}
    />
  );
}
