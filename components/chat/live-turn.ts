/** The turn being asked, held in the browser until the server's copy of the conversation has it. */
import { useState } from "react";
import type { StoredMessage } from "@/sdk/core/wire.ts";
import type { CitedChatTurn } from "@/sdk/react/index.ts";

/** The turn being asked, as useCitedChat holds it. */
export type LiveTurn = CitedChatTurn;

/** The id the route stores the answer under: the `saved` id, else the service's message id. */
export function liveAnswerId(turn: LiveTurn): string | null {
  return turn.messageId ?? turn.answer.messageId;
}

/** Whether the stored messages already hold this turn's answer (then the stored copy is drawn). */
export function isStored(turn: LiveTurn, messages: readonly StoredMessage[]): boolean {
  const id = liveAnswerId(turn);
  return id !== null && messages.some((message) => message.id === id);
}

/**
 * Where the turn's question goes among the stored messages: after those its conversation held when the turn
 * was first shown (none for a conversation created for it). Null without a turn.
 */
export function useTurnStart(turn: LiveTurn | null, messages: readonly StoredMessage[]): number | null {
  const [start, setStart] = useState<{ key: number; index: number } | null>(null);
  if (turn === null) return null;
  if (start?.key === turn.key) return start.index;
  const index = turn.startsConversation ? 0 : messages.length;
  setStart({ key: turn.key, index });
  return index;
}

/** Whether the route has stored the turn's question (it does so before the answer), at the turn's start. */
export function isQuestionStored(
  turn: LiveTurn,
  messages: readonly StoredMessage[],
  start: number | null,
): boolean {
  const stored = start === null ? undefined : messages[start];
  return stored?.role === "user" && stored.text === turn.question;
}
