"use client";
/**
 * The chat: conversations beside the active one, its messages, the composer, and the evidence of
 * the citation opened last (a column on wide screens, a sheet on phones). Stored turns come from
 * the server; the turn being asked lives here until the server has it.
 */
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { cited } from "@/lib/cited-browser";
import {
  type AnswerState,
  type Conversation,
  createAnswerState,
  type DetailLevel,
  type StoredMessage,
  type TechnicalityLevel,
} from "@/sdk/core/index.ts";
import type { OpenedEvidence } from "@/sdk/react/index.ts";
import { Composer } from "./composer";
import { ConversationList } from "./conversation-list";
import { ErrorBanner, type ShownError, shownErrorOf } from "./error-banner";
import { EvidencePanel } from "./evidence-panel";
import { MessageList } from "./message-list";

export interface ChatShellProps {
  conversations: Conversation[];
  conversationId: string | null;
  messages: StoredMessage[];
  authScope: string;
}

/** The turn being asked: the question, and the answer as it streams. */
export interface LiveTurn {
  question: string;
  answer: AnswerState;
  messageId: string | null;
  stopped: boolean;
}

export function ChatShell({ conversations, conversationId, messages, authScope }: ChatShellProps) {
  const router = useRouter();
  const [activeId, setActiveId] = useState(conversationId);
  const [live, setLive] = useState<LiveTurn | null>(null);
  const [stopper, setStopper] = useState<AbortController | null>(null);
  const [error, setError] = useState<ShownError | null>(null);
  const [evidence, setEvidence] = useState<OpenedEvidence | null>(null);
  const [listOnPhone, setListOnPhone] = useState(false);
  const [, startTransition] = useTransition();

  async function ask(question: string, levels: { detail: DetailLevel; technicality: TechnicalityLevel }) {
    setError(null);
    const controller = new AbortController();
    setStopper(controller);
    let turn: LiveTurn = { question, answer: createAnswerState(), messageId: null, stopped: false };
    setLive(turn);
    let created: string | null = null;
    try {
      let id = activeId;
      if (id === null) {
        id = (await cited.createConversation(undefined, { signal: controller.signal })).id;
        created = id;
        setActiveId(id);
      }
      const updates = cited.ask(id, question, {
        signal: controller.signal,
        detail_level: levels.detail,
        technicality_level: levels.technicality,
      });
      for await (const update of updates) {
        turn =
          update.type === "answer"
            ? { ...turn, answer: update.answer }
            : { ...turn, messageId: update.messageId };
        setLive(turn);
      }
    } catch (failure) {
      if (controller.signal.aborted) {
        // The route saved what had arrived, marked partial; show it so until the saved copy arrives.
        setLive({ ...turn, stopped: true });
      } else {
        setError(shownErrorOf(failure));
        setLive(turn.answer.text === "" ? null : { ...turn, stopped: true });
      }
    } finally {
      setStopper(null);
      // The stored turn replaces the live one in the same render; a new conversation gets its own URL.
      startTransition(() => {
        if (created) router.replace(`/chat/${created}`);
        else router.refresh();
        setLive(null);
      });
    }
  }

  return (
    <div className="flex h-full min-h-0">
      <ConversationList
        conversations={conversations}
        activeId={activeId}
        openOnPhone={listOnPhone}
        onClosePhone={() => setListOnPhone(false)}
      />
      <main className="flex min-w-0 flex-1 flex-col" aria-label="Conversation">
        <button
          type="button"
          onClick={() => setListOnPhone(true)}
          className="m-2 self-start rounded-lg border border-stone-400 px-3 py-1 text-sm md:hidden dark:border-stone-600"
        >
          Conversations ({conversations.length})
        </button>
        {error ? <ErrorBanner error={error} onDismiss={() => setError(null)} /> : null}
        <MessageList
          messages={messages}
          live={live}
          authScope={authScope}
          onOpenEvidence={setEvidence}
          empty={activeId === null}
        />
        <Composer busy={stopper !== null} onAsk={ask} onStop={() => stopper?.abort()} />
      </main>
      {evidence ? (
        <EvidencePanel
          evidence={evidence}
          authScope={authScope}
          onClose={() => setEvidence(null)}
          wideClassName="lg:h-auto lg:w-[min(48vw,46rem)]"
        />
      ) : null}
    </div>
  );
}
