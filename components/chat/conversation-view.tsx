"use client";
/** The conversation a page shows: its stored turns, and the turn being asked in it, if any. */
import type { StoredMessage } from "@/sdk/core/wire.ts";
import { useChat } from "./chat-context";
import { isStored } from "./live-turn";
import { MessageList } from "./message-list";
import { useStoredAnswerWait } from "./use-stored-answer-wait";

export interface ConversationViewProps {
  conversationId: string | null;
  messages: StoredMessage[];
}

export function ConversationView({ conversationId, messages }: ConversationViewProps) {
  const { live, failedIn, authScope, openEvidence } = useChat();
  // A new conversation's first turn shows at /chat until its own URL takes over.
  const shown = live && (live.conversationId === conversationId || conversationId === null) ? live : null;
  const unanswered =
    shown === null ? unansweredQuestion(messages, Date.now(), failedIn === conversationId) : null;
  // A stopped turn is saved by the route a moment after Stop: read the page again until it has it.
  const stoppedUnsaved = shown?.stopped && !isStored(shown, messages) ? `stopped:${shown.key}` : null;
  const answerWait = useStoredAnswerWait(unanswered?.settled === false ? unanswered.id : stoppedUnsaved);
  return (
    <MessageList
      messages={messages}
      live={shown}
      authScope={authScope}
      onOpenEvidence={openEvidence}
      empty={conversationId === null}
      answerWait={unanswered === null ? null : unanswered.settled ? "none" : answerWait}
    />
  );
}

/** Longer than any answer takes to be written: a question this old without its answer has none coming. */
const answerComesWithinMs = 10 * 60_000;

/**
 * The last stored message when it is a question without an answer; `settled` when none is coming: its ask
 * failed in this chat, or it is older than any answer takes.
 */
function unansweredQuestion(
  messages: readonly StoredMessage[],
  now: number,
  failedHere: boolean,
): { id: string; settled: boolean } | null {
  const last = messages.at(-1);
  if (last?.role !== "user") return null;
  return { id: last.id, settled: failedHere || now - Date.parse(last.createdAt) > answerComesWithinMs };
}
