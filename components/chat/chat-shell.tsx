"use client";
/**
 * The chat around a conversation (held by the chat layout, so it stays mounted from one
 * conversation to the next): the conversation list, the composer, the turn being asked, errors
 * and the evidence of the citation opened last (a column on wide screens, a sheet on phones).
 * The conversation's stored turns come from the page below it.
 */
import { useParams, useRouter } from "next/navigation";
import { type ReactNode, useCallback, useEffect, useRef, useState, useTransition } from "react";
import { useCited } from "@/components/cited-browser-provider";
import { useNewChatClicks } from "@/components/new-chat-link";
import { createAnswerState, titleFrom } from "@/sdk/core/index.ts";
import type { Conversation, SourceList } from "@/sdk/core/wire.ts";
import type { OpenedEvidence } from "@/sdk/react/index.ts";
import { ChatContext } from "./chat-context";
import { Composer, type Levels } from "./composer";
import { ConversationList } from "./conversation-list";
import { ErrorBanner, type ShownError, shownErrorOf } from "./error-banner";
import { EvidencePanel } from "./evidence-panel";
import type { LiveTurn } from "./live-turn";

export interface ChatShellProps {
  conversations: Conversation[];
  authScope: string;
  /** The chat's address (`/chat`, or the console's Try tab); a conversation's is below it. */
  chatPath: string;
  /** The evidence column's width beside the chat on wide screens (Tailwind classes from `lg:`). */
  evidenceWidthClassName: string;
  /** What the assistant answers from, read on the server and not awaited there. */
  sources: Promise<SourceList | null>;
  children: ReactNode;
}

/** Counts the asks of this page, to tell two asks of the same question apart. */
let asks = 0;

export function ChatShell({
  conversations,
  authScope,
  chatPath,
  evidenceWidthClassName,
  sources,
  children,
}: ChatShellProps) {
  const cited = useCited();
  const router = useRouter();
  const routeId = useParams<{ id?: string[] }>().id?.[0] ?? null;
  // A conversation created here for a question, before the URL shows it.
  const [created, setCreated] = useState<string | null>(null);
  const activeId = routeId ?? created;
  const [live, setLive] = useState<LiveTurn | null>(null);
  const [stopper, setStopper] = useState<AbortController | null>(null);
  const [error, setError] = useState<ShownError | null>(null);
  const [failedIn, setFailedIn] = useState<string | null>(null);
  const [evidence, setEvidence] = useState<OpenedEvidence | null>(null);
  const [listOnPhone, setListOnPhone] = useState(false);
  const [, startTransition] = useTransition();
  // The ask in flight; cleared when it ends or is abandoned, so an abandoned ask updates nothing.
  const running = useRef<AbortController | null>(null);
  const createdNow = useRef(created);
  createdNow.current = created;

  // Leaving the chat (another page, sign-out) stops the answer being written for it.
  useEffect(() => () => abandon(running), []);

  // State setters never change: so neither does this.
  const clear = useCallback((): void => {
    setCreated(null);
    setLive(null);
    setStopper(null);
    setError(null);
    setFailedIn(null);
    setEvidence(null);
  }, []);

  // Another conversation was opened, or a new one started: start afresh. The URL of a
  // conversation this chat just created arrives here too, and changes nothing.
  useEffect(() => {
    if (routeId !== null && routeId === createdNow.current) {
      // Moving to a page does not reload the layout: read the list again, now holding the new one.
      router.refresh();
      return;
    }
    abandon(running);
    clear();
  }, [routeId, router, clear]);

  /**
   * A link to a new conversation, clicked: the chat is cleared at once, also when its address has not moved
   * to the conversation being answered yet (then the route does not change). That answer is no longer shown
   * but is written to its end and stored in its own conversation.
   */
  const startNew = useCallback((): void => {
    running.current = null;
    clear();
  }, [clear]);
  useNewChatClicks(startNew);

  /** Asks; resolves to false when the question was not taken (the composer then keeps it). */
  async function ask(question: string, levels: Levels): Promise<boolean> {
    setError(null);
    setFailedIn(null);
    const controller = new AbortController();
    running.current = controller;
    const current = () => running.current === controller;
    setStopper(controller);
    let turn: LiveTurn = {
      key: ++asks,
      startsConversation: activeId === null,
      conversationId: activeId,
      question,
      answer: createAnswerState(),
      messageId: null,
      stopped: false,
    };
    setLive(turn);
    let taken = true;
    try {
      if (turn.conversationId === null) {
        // Titled by its question now: an ask that fails before the question is stored leaves no untitled conversation.
        const { id } = await cited.createConversation(titleFrom(question), { signal: controller.signal });
        turn = { ...turn, conversationId: id };
        if (current()) {
          createdNow.current = id;
          setCreated(id);
          // The page moves to the conversation's address at once, so that a reload while its answer is
          // written comes back to it; the live turn shows there until the stored copy takes over.
          startTransition(() => router.replace(`${chatPath}/${id}`));
          setLive(turn);
        }
      }
      const updates = cited.ask(turn.conversationId!, question, {
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
        const shown = shownErrorOf(failure);
        if (shown.signedOut) {
          running.current = null;
          router.replace("/sign-in?signed-out=1");
          return false;
        }
        setError(shown);
        taken = turn.answer.text !== "";
        setLive(taken ? { ...turn, stopped: true } : null);
        if (!taken) setFailedIn(turn.conversationId);
      }
    }
    if (current()) {
      running.current = null;
      setStopper(null);
    }
    // Read the stored conversation back, and the list with its title; the live turn is drawn until the
    // stored copy holds its answer. Never a move: a new conversation's address was taken when it was
    // created, and a move now would override one the person has made since (the router lets the last move
    // win, while a refresh waits for a move under way and then reads wherever it landed).
    startTransition(() => router.refresh());
    return taken;
  }

  return (
    <ChatContext
      value={{ authScope, live, failedIn, openEvidence: setEvidence, openedEvidence: evidence, sources }}
    >
      <div className="flex h-full min-h-0">
        <ConversationList
          conversations={conversations}
          activeId={activeId}
          openOnPhone={listOnPhone}
          onClosePhone={() => setListOnPhone(false)}
          yieldsToEvidence={evidence !== null}
          chatPath={chatPath}
        />
        <main
          id="main-content"
          tabIndex={-1}
          className="flex min-w-0 flex-1 flex-col focus:outline-none"
          aria-label="Conversation"
        >
          <button
            type="button"
            onClick={() => setListOnPhone(true)}
            className={`m-2 self-start rounded-lg border border-stone-400 px-3 py-1 text-sm md:hidden dark:border-stone-600 ${evidence !== null && !listOnPhone ? "lg:block 2xl:hidden" : ""}`}
          >
            Conversations ({conversations.length})
          </button>
          {error ? <ErrorBanner error={error} onDismiss={() => setError(null)} /> : null}
          {children}
          <Composer busy={stopper !== null} onAsk={ask} onStop={() => stopper?.abort()} />
        </main>
        {evidence ? (
          <EvidencePanel
            evidence={evidence}
            authScope={authScope}
            onClose={() => setEvidence(null)}
            wideClassName={evidenceWidthClassName}
          />
        ) : null}
      </div>
    </ChatContext>
  );
}

/** Stops the ask in flight, and makes sure nothing it still receives is shown. */
function abandon(running: { current: AbortController | null }): void {
  const controller = running.current;
  running.current = null;
  controller?.abort();
}
