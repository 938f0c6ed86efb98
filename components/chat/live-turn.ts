/** The turn being asked, held in the browser until the server's copy of the conversation has it. */
import type { AnswerState, StoredMessage } from "@/sdk/core/index.ts";

export interface LiveTurn {
  /** The conversation it is asked in; null until a new conversation is created for it. */
  conversationId: string | null;
  question: string;
  answer: AnswerState;
  /** The stored answer's id, once the route said `saved`. */
  messageId: string | null;
  stopped: boolean;
}

/** The id the route stores the answer under: the `saved` id, else the service's message id. */
export function liveAnswerId(turn: LiveTurn): string | null {
  return turn.messageId ?? turn.answer.messageId;
}

/** Whether the stored messages already hold this turn's answer (then the stored copy is drawn). */
export function isStored(turn: LiveTurn, messages: readonly StoredMessage[]): boolean {
  const id = liveAnswerId(turn);
  return id !== null && messages.some((message) => message.id === id);
}
