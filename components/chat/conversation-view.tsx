"use client";
/** The conversation a page shows: its stored turns, and the turn being asked in it, if any. */
import type { StoredMessage } from "@/sdk/core/index.ts";
import { useChat } from "./chat-context";
import { MessageList } from "./message-list";

export interface ConversationViewProps {
  conversationId: string | null;
  messages: StoredMessage[];
}

export function ConversationView({ conversationId, messages }: ConversationViewProps) {
  const { live, authScope, openEvidence } = useChat();
  // A new conversation's first turn shows at /chat until its own URL takes over.
  const shown = live && (live.conversationId === conversationId || conversationId === null) ? live : null;
  return (
    <MessageList
      messages={messages}
      live={shown}
      authScope={authScope}
      onOpenEvidence={openEvidence}
      empty={conversationId === null}
    />
  );
}
