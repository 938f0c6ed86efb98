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
import type { Conversation, SourceList } from "@/sdk/core/wire.ts";
import { type OpenedEvidence, useCitedChat } from "@/sdk/react/index.ts";
import { ChatContext } from "./chat-context";
import { Composer, type Levels } from "./composer";
import { ConversationList } from "./conversation-list";
import { ErrorBanner, shownErrorOf } from "./error-banner";
import { EvidencePanel } from "./evidence-panel";

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
  const [evidence, setEvidence] = useState<OpenedEvidence | null>(null);
  const [listOnPhone, setListOnPhone] = useState(false);
  const [, startTransition] = useTransition();
  // The conversation created here for a question, before the URL shows it.
  const createdNow = useRef<string | null>(null);
  const chat = useCitedChat({
    client: cited,
    conversationId: routeId,
    onConversationCreated(id) {
      createdNow.current = id;
      // The page moves to the conversation's address at once, so that a reload while its answer is
      // written comes back to it; the live turn shows there until the stored copy takes over.
      startTransition(() => router.replace(`${chatPath}/${id}`));
    },
    onFinish(_turn, error) {
      if (error && shownErrorOf(error).signedOut) {
        router.replace("/sign-in?signed-out=1");
        return;
      }
      // Read the stored conversation back, and the list with its title; the live turn is drawn until the
      // stored copy holds its answer. Never a move: a new conversation's address was taken when it was
      // created, and a move now would override one the person has made since (the router lets the last
      // move win, while a refresh waits for a move under way and then reads wherever it landed).
      startTransition(() => router.refresh());
    },
  });
  const { reset, stop } = chat;
  const error = chat.error ? shownErrorOf(chat.error) : null;

  // Another conversation was opened, or a new one started: start afresh, and stop the answer being
  // written for the one left. The URL of a conversation this chat just created arrives here too, and
  // changes nothing.
  useEffect(() => {
    if (routeId !== null && routeId === createdNow.current) {
      // Moving to a page does not reload the layout: read the list again, now holding the new one.
      router.refresh();
      return;
    }
    stop();
    reset();
    createdNow.current = null;
    setEvidence(null);
  }, [routeId, router, stop, reset]);

  /**
   * A link to a new conversation, clicked: the chat is cleared at once, also when its address has not moved
   * to the conversation being answered yet (then the route does not change). That answer is no longer shown
   * but is written to its end and stored in its own conversation.
   */
  const startNew = useCallback((): void => {
    reset();
    createdNow.current = null;
    setEvidence(null);
  }, [reset]);
  useNewChatClicks(startNew);

  const ask = (question: string, levels: Levels) =>
    chat.ask(question, { detail_level: levels.detail, technicality_level: levels.technicality });
  const activeId = chat.conversationId;
  const busy = chat.status === "submitted" || chat.status === "streaming";

  return (
    <ChatContext
      value={{
        authScope,
        live: chat.live,
        // Signed out: the page is on its way to the sign-in form; it says nothing about the question.
        failedIn: error?.signedOut ? null : chat.failedIn,
        openEvidence: setEvidence,
        openedEvidence: evidence,
        sources,
      }}
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
          {error && !error.signedOut ? <ErrorBanner error={error} onDismiss={chat.dismissError} /> : null}
          {children}
          <Composer busy={busy} onAsk={ask} onStop={stop} />
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
