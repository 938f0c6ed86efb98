"use client";
/**
 * The chat: conversations beside the active one, its messages, the composer, and the evidence of
 * the citation opened last (a column on wide screens, a sheet on phones). Stored turns come from
 * the server; the turn being asked lives here until the server has it.
 */
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, useTransition } from "react";
import { cited } from "@/lib/cited-browser";
import { type Conversation, createAnswerState, type StoredMessage } from "@/sdk/core/index.ts";
import type { OpenedEvidence } from "@/sdk/react/index.ts";
import { Composer, type Levels } from "./composer";
import { ConversationList } from "./conversation-list";
import { ErrorBanner, type ShownError, shownErrorOf } from "./error-banner";
import { EvidencePanel } from "./evidence-panel";
import type { LiveTurn } from "./live-turn";
import { MessageList } from "./message-list";

export interface ChatShellProps {
  conversations: Conversation[];
  conversationId: string | null;
  messages: StoredMessage[];
  authScope: string;
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
  // The ask in flight; cleared when it ends or is abandoned, so an abandoned ask updates nothing.
  const running = useRef<AbortController | null>(null);
  const activeIdNow = useRef(activeId);
  activeIdNow.current = activeId;

  // Leaving the chat (another page, sign-out) stops the answer being written for it.
  useEffect(() => () => abandon(running), []);

  // Another conversation was opened (the page stays mounted across /chat/…): start afresh. The id
  // of a conversation this chat just created arrives here too, and changes nothing.
  useEffect(() => {
    if (conversationId === activeIdNow.current) return;
    abandon(running);
    setActiveId(conversationId);
    setLive(null);
    setStopper(null);
    setError(null);
    setEvidence(null);
  }, [conversationId]);

  /** Asks; resolves to false when the question was not taken (the composer then keeps it). */
  async function ask(question: string, levels: Levels): Promise<boolean> {
    setError(null);
    const controller = new AbortController();
    running.current = controller;
    const current = () => running.current === controller;
    setStopper(controller);
    let turn: LiveTurn = { question, answer: createAnswerState(), messageId: null, stopped: false };
    setLive(turn);
    let created: string | null = null;
    let taken = true;
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
        if (current()) setLive(turn);
      }
    } catch (failure) {
      if (!current()) return true;
      if (controller.signal.aborted) {
        // Stopped: the route stores what had arrived, marked partial; this copy shows until it is read back.
        setLive({ ...turn, stopped: true });
      } else {
        setError(shownErrorOf(failure));
        taken = turn.answer.text !== "";
        setLive(taken ? { ...turn, stopped: true } : null);
      }
    }
    if (!current()) return taken;
    running.current = null;
    setStopper(null);
    // Read the stored conversation back; the live turn is drawn until it holds the answer.
    startTransition(() => {
      if (created) router.replace(`/chat/${created}`);
      else router.refresh();
    });
    return taken;
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

/** Stops the ask in flight, and makes sure nothing it still receives is shown. */
function abandon(running: { current: AbortController | null }): void {
  const controller = running.current;
  running.current = null;
  controller?.abort();
}
