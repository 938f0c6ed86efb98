"use client";
/** The turns of a conversation, oldest first, kept scrolled to the newest while an answer streams. */
import { useEffect, useRef } from "react";
import { cited } from "@/lib/cited-browser";
import type { AnswerState, StoredMessage } from "@/sdk/core/index.ts";
import { CitedAnswer, type OpenedEvidence } from "@/sdk/react/index.ts";
import type { LiveTurn } from "./chat-shell";

export interface MessageListProps {
  messages: StoredMessage[];
  live: LiveTurn | null;
  authScope: string;
  empty: boolean;
  onOpenEvidence(evidence: OpenedEvidence): void;
}

export function MessageList({ messages, live, authScope, empty, onOpenEvidence }: MessageListProps) {
  const end = useRef<HTMLDivElement>(null);
  const liveText = live?.answer.text;
  const count = messages.length;
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll again whenever a turn grows or arrives.
  useEffect(() => {
    end.current?.scrollIntoView({ block: "end" });
  }, [liveText, count]);

  if (messages.length === 0 && live === null) {
    return (
      <div className="flex flex-1 flex-col items-center justify-center gap-2 p-6 text-center">
        <h1 className="text-xl font-semibold">{empty ? "Ask your documents" : "No questions yet"}</h1>
        <p className="max-w-md text-stone-600 dark:text-stone-400">
          Each claim of the answer links to the lines that support it. Open a citation to see the page.
        </p>
      </div>
    );
  }
  return (
    <ol className="flex flex-1 flex-col gap-4 overflow-y-auto p-4" aria-label="Messages">
      {messages.map((message) =>
        message.role === "user" ? (
          <Question key={message.id} text={message.text} />
        ) : (
          <li key={message.id} data-testid="message-assistant" className="max-w-3xl">
            {message.answer ? (
              <Answer
                answer={message.answer}
                messageId={message.id}
                partial={message.partial}
                authScope={authScope}
                onOpenEvidence={onOpenEvidence}
              />
            ) : (
              <p>{message.text}</p>
            )}
          </li>
        ),
      )}
      {live ? (
        <>
          <Question text={live.question} />
          <li data-testid="message-assistant" className="max-w-3xl" aria-busy={!live.stopped}>
            <Answer
              answer={live.answer}
              messageId={live.messageId}
              partial={live.stopped}
              authScope={authScope}
              onOpenEvidence={onOpenEvidence}
            />
          </li>
        </>
      ) : null}
      <div ref={end} />
    </ol>
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
  return (
    <CitedAnswer
      answer={answer}
      messageId={messageId}
      authScope={authScope}
      loadPdf={cited.pdf}
      partial={partial}
      onOpenEvidence={onOpenEvidence}
    />
  );
}
