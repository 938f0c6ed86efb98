"use client";
/**
 * useCitedChat: a conversation's state in the browser over the browser client — the turns, the answer
 * as it streams, whether one is being written, stop, retry, the ids the host stored answers under, and
 * the last error with its request id. The state a host would otherwise write around `client.ask`.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { ServiceBrowserClient } from "../browser/create-service-browser-client.ts";
import { type AnswerState, createAnswerState } from "../core/answer-state.ts";
import { titleFrom } from "../core/conversation-title.ts";
import type { DetailLevel, StoredMessage, TechnicalityLevel } from "../core/wire.ts";

/** One question and its answer as it is written. */
export interface CitedChatTurn {
  /** Tells this ask apart from an earlier one of the same question. */
  key: number;
  /** Asked in a conversation created for it, which held nothing before. */
  startsConversation: boolean;
  /** Null until a new conversation has been created for it. */
  conversationId: string | null;
  question: string;
  answer: AnswerState;
  /** The id the host stored the answer under, once it said so. */
  messageId: string | null;
  /** Stopped, or cut off by an error after part of it arrived. */
  stopped: boolean;
}

/** A message to draw: a question, or an answer (with `answer` set, streaming while `streaming`). */
export interface CitedChatMessage {
  /** Unique in the list and stable while the answer streams and is saved: a React key. */
  id: string;
  /** The id the host stored it under (what `CitedAnswer` needs to load a PDF); null until saved. */
  messageId: string | null;
  role: "user" | "assistant";
  text: string;
  answer: AnswerState | null;
  streaming: boolean;
}

/** `submitted`: asked, nothing back yet; `streaming`: the answer is being written; `error`: the last ask failed. */
export type CitedChatStatus = "ready" | "submitted" | "streaming" | "error";

export interface AskLevels {
  detail_level?: DetailLevel;
  technicality_level?: TechnicalityLevel;
}

export interface UseCitedChatOptions {
  client: ServiceBrowserClient;
  /**
   * The conversation to ask in; without one, the first question creates one, titled by the question. When
   * the host moves to another conversation (or to a new chat), it calls `stop()` and `reset()`.
   */
  conversationId?: string | null;
  /** The conversation's stored messages (e.g. read on the server), drawn before the turns asked here. */
  initialMessages?: readonly StoredMessage[];
  /** A conversation was created for a question (e.g. to move the page to its address). */
  onConversationCreated?(conversationId: string): void;
  /**
   * An ask ended: its answer saved, stopped, or failed with `error`. Called also for a turn `reset` let go
   * (its answer was written to its end), so a host can read its stored conversations again.
   */
  onFinish?(turn: CitedChatTurn, error: Error | null): void;
}

export interface CitedChat {
  /** The conversation asked in: the one given, or the one created for the first question. */
  conversationId: string | null;
  /** The initial messages, the turns asked here before, and the turn being answered, in order. */
  messages: CitedChatMessage[];
  /** The turn asked last, kept after it ends until the next ask or `reset`. */
  live: CitedChatTurn | null;
  status: CitedChatStatus;
  /** Why the last ask failed; a `CitedApiError` carries `status`, `code` and `requestId`. */
  error: Error | null;
  /** The conversation whose last question got no answer at all (the question is kept), else null. */
  failedIn: string | null;
  /**
   * Asks; resolves to false when nothing of an answer came, or when an answer is still being written (a
   * composer then keeps the question).
   */
  ask(question: string, levels?: AskLevels): Promise<boolean>;
  /** Stops the answer being written; the host stores what had arrived, marked partial. */
  stop(): void;
  /** Asks the last question again, at the same levels; resolves to false when nothing was asked yet. */
  retry(): Promise<boolean>;
  /** Starts afresh: no turn, no error, no created conversation. An answer still being written is
   * not stopped: it is written to its end and stored in its own conversation, and no longer shown. */
  reset(): void;
  /** Hides the error. */
  dismissError(): void;
}

let asks = 0;

function storedAsMessage(message: StoredMessage): CitedChatMessage {
  return {
    id: message.id,
    messageId: message.id,
    role: message.role,
    text: message.text,
    answer: message.answer,
    streaming: false,
  };
}

function turnMessages(turn: CitedChatTurn, streaming: boolean): CitedChatMessage[] {
  const question: CitedChatMessage = {
    id: `question-${turn.key}`,
    messageId: null,
    role: "user",
    text: turn.question,
    answer: null,
    streaming: false,
  };
  if (!streaming && turn.answer.text === "") return [question];
  // One id from the first snapshot on: the answer keeps its component (and an opened citation) when it is saved.
  const answer: CitedChatMessage = {
    id: `answer-${turn.key}`,
    messageId: turn.messageId,
    role: "assistant",
    text: turn.answer.text,
    answer: turn.answer,
    streaming,
  };
  return [question, answer];
}

/**
 * @example
 * const chat = useCitedChat({ client });
 * chat.messages.map((message) => message.answer
 *   ? <CitedAnswer key={message.id} answer={message.answer} messageId={message.messageId} … />
 *   : <p key={message.id}>{message.text}</p>);
 * <form onSubmit={() => chat.ask(question)}>…</form>
 */
export function useCitedChat(options: UseCitedChatOptions): CitedChat {
  const { client, initialMessages } = options;
  const [created, setCreated] = useState<string | null>(null);
  const conversationId = options.conversationId ?? created;
  const [live, setLiveState] = useState<CitedChatTurn | null>(null);
  const liveNow = useRef<CitedChatTurn | null>(null);
  const setLive = useCallback((turn: CitedChatTurn | null) => {
    liveNow.current = turn;
    setLiveState(turn);
  }, []);
  const [earlier, setEarlier] = useState<CitedChatTurn[]>([]);
  const [error, setError] = useState<Error | null>(null);
  const [lastAsked, setLastAsked] = useState<{ question: string; levels: AskLevels } | null>(null);
  const [failedIn, setFailedIn] = useState<string | null>(null);
  // Whether an answer is being written: the ask in flight is `running`, which stop() aborts.
  const [answering, setAnswering] = useState(false);
  // The ask in flight; cleared when it ends or is let go, so a turn let go updates nothing.
  const running = useRef<AbortController | null>(null);
  const callbacks = useRef(options);
  callbacks.current = options;

  // A chat that leaves the page stops the answer being written for it.
  useEffect(
    () => () => {
      const controller = running.current;
      running.current = null;
      controller?.abort();
    },
    [],
  );

  const ask = useCallback(
    async (question: string, levels: AskLevels = {}): Promise<boolean> => {
      // One answer at a time: a second question now would orphan the first stream (stop could not reach it).
      if (running.current !== null) return false;
      setError(null);
      setFailedIn(null);
      setLastAsked({ question, levels });
      const controller = new AbortController();
      running.current = controller;
      const current = () => running.current === controller;
      setAnswering(true);
      let turn: CitedChatTurn = {
        key: ++asks,
        startsConversation: conversationId === null,
        conversationId,
        question,
        answer: createAnswerState(),
        messageId: null,
        stopped: false,
      };
      const previous = liveNow.current;
      if (previous) setEarlier((turns) => [...turns, previous]);
      setLive(turn);
      let taken = true;
      let failed: Error | null = null;
      try {
        if (turn.conversationId === null) {
          // Titled by its question now: an ask that fails before the question is stored leaves no untitled conversation.
          const { id } = await client.createConversation(titleFrom(question), { signal: controller.signal });
          turn = { ...turn, conversationId: id };
          if (current()) {
            setCreated(id);
            setLive(turn);
            callbacks.current.onConversationCreated?.(id);
          }
        }
        for await (const update of client.ask(turn.conversationId!, question, {
          signal: controller.signal,
          ...levels,
        })) {
          turn =
            update.type === "answer"
              ? { ...turn, answer: update.answer }
              : { ...turn, messageId: update.messageId };
          if (current()) setLive(turn);
        }
      } catch (failure) {
        if (!current()) return true;
        if (controller.signal.aborted) {
          turn = { ...turn, stopped: true };
          setLive(turn);
        } else {
          failed = failure instanceof Error ? failure : new Error(String(failure));
          setError(failed);
          taken = turn.answer.text !== "";
          turn = { ...turn, stopped: true };
          setLive(taken ? turn : null);
          if (!taken) setFailedIn(turn.conversationId);
        }
      }
      if (current()) {
        running.current = null;
        setAnswering(false);
      }
      callbacks.current.onFinish?.(turn, failed);
      return taken;
    },
    [client, conversationId, setLive],
  );

  const stop = useCallback(() => running.current?.abort(), []);

  const reset = useCallback(() => {
    running.current = null;
    setCreated(null);
    setLive(null);
    setEarlier([]);
    setAnswering(false);
    setError(null);
    setFailedIn(null);
    setLastAsked(null);
  }, [setLive]);

  const messages = useMemo(
    () => [
      ...(initialMessages ?? []).map(storedAsMessage),
      ...earlier.flatMap((turn) => turnMessages(turn, false)),
      ...(live ? turnMessages(live, answering) : []),
    ],
    [initialMessages, earlier, live, answering],
  );

  const status: CitedChatStatus = answering
    ? live?.answer.text || live?.answer.status
      ? "streaming"
      : "submitted"
    : error
      ? "error"
      : "ready";

  return {
    conversationId,
    messages,
    live,
    status,
    error,
    failedIn,
    ask,
    stop,
    retry: () => (lastAsked === null ? Promise.resolve(false) : ask(lastAsked.question, lastAsked.levels)),
    reset,
    dismissError: () => setError(null),
  };
}
