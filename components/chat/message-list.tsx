"use client";
/** The turns of a conversation, oldest first, kept scrolled to the newest while an answer streams. */
import { Suspense, useEffect, useRef } from "react";
import { useCited } from "@/components/cited-browser-provider";
import type { AnswerState } from "@/sdk/core/index.ts";
import type { StoredMessage } from "@/sdk/core/wire.ts";
import { CitedAnswer, type OpenedEvidence } from "@/sdk/react/index.ts";
import { useChat } from "./chat-context";
import { isQuestionStored, isStored, type LiveTurn, liveAnswerId, useTurnStart } from "./live-turn";
import { SourcesHint } from "./sources-hint";
import type { StoredAnswerWait } from "./use-stored-answer-wait";

export interface MessageListProps {
  messages: StoredMessage[];
  live: LiveTurn | null;
  authScope: string;
  empty: boolean;
  /** The last question shown has no stored answer: one may still be on its way ("waiting"), or none is. */
  answerWait: StoredAnswerWait | null;
  onOpenEvidence(evidence: OpenedEvidence): void;
}

/** How close to the bottom (px) the list must be to keep following a streaming answer. */
const followSlack = 80;

export function MessageList({
  messages,
  live,
  authScope,
  empty,
  answerWait,
  onOpenEvidence,
}: MessageListProps) {
  const { sources } = useChat();
  const list = useRef<HTMLOListElement>(null);
  // Follows the newest text only while the reader is at the bottom; scrolling up to read stops it.
  const following = useRef(true);
  const pending = live && !isStored(live, messages) ? live : null;
  const turnStart = useTurnStart(live, messages);
  // What is shown, the same whether the newest turn is the live copy or the stored one that takes it over:
  // that swap must not move the list, or a click on a citation just then lands beside it.
  const questions =
    messages.filter((message) => message.role === "user").length +
    (pending !== null && !isQuestionStored(pending, messages, turnStart) ? 1 : 0);
  const newestText = pending?.answer.text ?? messages.findLast((message) => message.answer)?.answer?.text;
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll again whenever a turn grows or arrives.
  useEffect(() => {
    const element = list.current;
    if (element && following.current) element.scrollTop = element.scrollHeight;
  }, [newestText, questions]);

  if (messages.length === 0 && pending === null) {
    return (
      <div className="flex flex-1 flex-col items-center justify-center gap-2 p-6 text-center">
        <h1 className="text-xl font-semibold">{empty ? "Ask your documents" : "No questions yet"}</h1>
        <p className="max-w-md text-stone-600 dark:text-stone-400">
          Each claim of the answer links to the lines that support it. Open a citation to see the page.
        </p>
        {empty ? (
          <Suspense fallback={null}>
            <SourcesHint sources={sources} />
          </Suspense>
        ) : null}
      </div>
    );
  }
  const answerItem = (
    key: string,
    answer: AnswerProps["answer"],
    messageId: string | null,
    partial: boolean,
  ) => (
    <li
      key={key}
      data-testid="message-assistant"
      className="max-w-3xl"
      aria-busy={answer.phase === "streaming" && !partial}
    >
      <Answer
        answer={answer}
        messageId={messageId}
        partial={partial}
        authScope={authScope}
        onOpenEvidence={onOpenEvidence}
      />
    </li>
  );
  // Once stored, the stored question stands for the live one; an earlier ask of the same question stays apart.
  const liveQuestion = pending !== null && !isQuestionStored(pending, messages, turnStart);
  const items = messages.flatMap((message, index) => {
    if (message.role === "user") {
      const question = <Question key={message.id} text={message.text} />;
      // Another question after it: its ask failed. The last question's note is `answerWait`'s.
      const next = messages[index + 1];
      const unanswered = next === undefined ? liveQuestion : next.role === "user";
      return unanswered
        ? [
            question,
            <MissingAnswer key={`${message.id}-unanswered`} text="No answer was saved for this question." />,
          ]
        : [question];
    }
    if (message.answer) return [answerItem(message.id, message.answer, message.id, message.partial)];
    return [
      <li key={message.id} data-testid="message-assistant" className="max-w-3xl">
        {message.text}
      </li>,
    ];
  });
  if (pending) {
    if (liveQuestion) items.push(<Question key="live-question" text={pending.question} />);
    // Keyed by the id the answer is stored under, so the stored copy takes over the same element.
    items.push(
      answerItem(liveAnswerId(pending) ?? "live-answer", pending.answer, pending.messageId, pending.stopped),
    );
  }
  return (
    <ol
      ref={list}
      onScroll={(event) => {
        const element = event.currentTarget;
        following.current = element.scrollHeight - element.scrollTop - element.clientHeight < followSlack;
      }}
      // No scroll anchoring: the list follows the answer itself, and Chromium moved it by a citation card's
      // height when the card opened under a citation near the bottom, so the click landed on the card.
      className="flex flex-1 flex-col gap-4 overflow-y-auto p-4 [overflow-anchor:none]"
      aria-label="Messages"
    >
      {items}
      {answerWait ? <MissingAnswer text={missingAnswerText[answerWait]} announced /> : null}
    </ol>
  );
}

const missingAnswerText: Record<StoredAnswerWait, string> = {
  waiting: "Looking for the answer to this question…",
  none: "No answer was saved for this question. Ask it again to get one.",
};

/** `announced`: the last question's note, which may change while shown, so screen readers hear it. */
function MissingAnswer({ text, announced = false }: { text: string; announced?: boolean }) {
  return (
    <li data-testid="message-unanswered" className="max-w-3xl text-stone-600 dark:text-stone-400">
      <p role={announced ? "status" : undefined}>{text}</p>
    </li>
  );
}

function Question({ text }: { text: string }) {
  return (
    <li
      data-testid="message-user"
      className="ml-auto max-w-2xl whitespace-pre-line rounded-2xl bg-blue-700 px-4 py-2 text-white dark:bg-blue-800"
    >
      {text}
    </li>
  );
}

interface AnswerProps extends Pick<MessageListProps, "authScope" | "onOpenEvidence"> {
  answer: AnswerState;
  messageId: string | null;
  partial: boolean;
}

function Answer({ answer, messageId, partial, authScope, onOpenEvidence }: AnswerProps) {
  const cited = useCited();
  const { openedEvidence } = useChat();
  return (
    <CitedAnswer
      answer={answer}
      messageId={messageId}
      authScope={authScope}
      loadPdf={cited.pdf}
      loadImage={cited.image}
      partial={partial}
      onOpenEvidence={onOpenEvidence}
      openedEvidence={openedEvidence}
    />
  );
}
