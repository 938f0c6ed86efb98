"use client";
/** The conversation a page shows: its stored turns, and the turn being asked in it, if any. */
import type { StoredMessage } from "@/sdk/core/index.ts";
import { useChat } from "./chat-context";
import { MessageList } from "./message-list";
import { useStoredAnswerWait } from "./use-stored-answer-wait";

export interface ConversationViewProps {
  conversationId: string | null;
  messages: StoredMessage[];
}

export function ConversationView({ conversationId, messages }: ConversationViewProps) {
  const { live, authScope, openEvidence } = useChat();
  // A new conversation's first turn shows at /chat until its own URL takes over.
  const shown = live && (live.conversationId === conversationId || conversationId === null) ? live : null;
  const unanswered = shown === null && messages.at(-1)?.role === "user" ? conversationId : null;
  const answerWait = useStoredAnswerWait(unanswered);
  return (
    <MessageList
      messages={messages}
      live={shown}
      authScope={authScope}
      onOpenEvidence={openEvidence}
      empty={conversationId === null}
      answerWait={answerWait}
    />
  );
}
