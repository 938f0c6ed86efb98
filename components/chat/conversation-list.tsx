"use client";
/** The user's conversations, most recently active first: open, start, rename, delete. */
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { useCited } from "@/components/cited-browser-provider";
import { NewChatLink } from "@/components/new-chat-link";
import type { Conversation } from "@/sdk/core/wire.ts";
import { ErrorBanner, type ShownError, shownErrorOf } from "./error-banner";

export interface ConversationListProps {
  conversations: Conversation[];
  activeId: string | null;
  /** On phones the list is a sheet over the chat, shown on demand. */
  openOnPhone: boolean;
  onClosePhone(): void;
  /**
   * While evidence is open beside the chat, the list gives up its column on screens narrower than
   * 2xl (shown on demand, as on phones), so the chat keeps a readable line and the page its width.
   */
  yieldsToEvidence: boolean;
  /** The chat's address; a conversation's is below it. */
  chatPath: string;
}

export function ConversationList({
  conversations,
  activeId,
  openOnPhone,
  onClosePhone,
  yieldsToEvidence,
  chatPath,
}: ConversationListProps) {
  const cited = useCited();
  const router = useRouter();
  const [renaming, setRenaming] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Conversation | null>(null);
  const [error, setError] = useState<ShownError | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);

  async function rename(conversation: Conversation, title: string) {
    setRenaming(null);
    if (title.trim() === "" || title.trim() === conversation.title) return;
    try {
      await cited.renameConversation(conversation.id, title.trim());
      router.refresh();
    } catch (failure) {
      setError(shownErrorOf(failure));
    }
  }

  async function remove(conversation: Conversation) {
    dialog.current?.close();
    setDeleting(null);
    try {
      await cited.deleteConversation(conversation.id);
      if (conversation.id === activeId) router.push(chatPath);
      router.refresh();
    } catch (failure) {
      setError(shownErrorOf(failure));
    }
  }

  return (
    <nav
      aria-label="Conversations"
      className={`${openOnPhone ? "fixed inset-0 top-12 z-40 flex" : yieldsToEvidence ? "hidden lg:hidden 2xl:flex" : "hidden"} w-full shrink-0 flex-col border-r border-stone-300 bg-white md:static md:flex md:w-72 dark:border-stone-800 dark:bg-stone-900`}
    >
      <div className="flex gap-2 p-3">
        <NewChatLink
          href={chatPath}
          onClick={onClosePhone}
          className="block flex-1 rounded-lg border border-stone-400 px-3 py-2 text-center font-medium hover:border-blue-700 dark:border-stone-600"
        >
          New conversation
        </NewChatLink>
        <button
          type="button"
          onClick={onClosePhone}
          className={`rounded-lg border border-stone-400 px-3 md:hidden dark:border-stone-600 ${yieldsToEvidence ? "lg:block 2xl:hidden" : ""}`}
        >
          Close
        </button>
      </div>
      {error ? <ErrorBanner error={error} onDismiss={() => setError(null)} /> : null}
      {conversations.length === 0 ? (
        <p className="px-4 text-sm text-stone-600 dark:text-stone-400">
          Your conversations will appear here.
        </p>
      ) : (
        <ul data-testid="conversation-list" className="flex-1 overflow-y-auto px-2 pb-3">
          {conversations.map((conversation) => {
            const title = conversation.title ?? "Untitled conversation";
            return (
              <li
                key={conversation.id}
                data-testid="conversation-item"
                className={`group flex items-center gap-1 rounded-lg px-2 py-1 ${conversation.id === activeId ? "bg-blue-50 dark:bg-blue-950" : ""}`}
              >
                {renaming === conversation.id ? (
                  <input
                    aria-label="Conversation title"
                    defaultValue={title}
                    maxLength={200}
                    // biome-ignore lint/a11y/noAutofocus: the person just asked to type a new title here.
                    autoFocus
                    onBlur={(event) => rename(conversation, event.currentTarget.value)}
                    onKeyDown={(event) => {
                      if (event.key === "Enter") rename(conversation, event.currentTarget.value);
                      if (event.key === "Escape") setRenaming(null);
                    }}
                    className="min-w-0 flex-1 rounded border border-blue-700 bg-white px-2 py-1 text-sm dark:bg-stone-950"
                  />
                ) : (
                  <Link
                    href={`${chatPath}/${conversation.id}`}
                    onClick={onClosePhone}
                    aria-current={conversation.id === activeId ? "page" : undefined}
                    className="min-w-0 flex-1 truncate py-1 text-sm"
                  >
                    {title}
                  </Link>
                )}
                <button
                  type="button"
                  aria-label={`Rename ${title}`}
                  onClick={() => setRenaming(conversation.id)}
                  className="rounded p-1.5 text-stone-600 hover:bg-stone-200 dark:text-stone-400 dark:hover:bg-stone-800"
                >
                  <PencilIcon />
                </button>
                <button
                  type="button"
                  aria-label={`Delete ${title}`}
                  onClick={() => {
                    setDeleting(conversation);
                    dialog.current?.showModal();
                  }}
                  className="rounded p-1.5 text-stone-600 hover:bg-stone-200 dark:text-stone-400 dark:hover:bg-stone-800"
                >
                  <TrashIcon />
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <dialog
        ref={dialog}
        aria-labelledby="delete-title"
        onClose={() => setDeleting(null)}
        className="m-auto max-w-sm rounded-xl border border-stone-300 bg-white p-5 text-stone-900 backdrop:bg-black/40 dark:border-stone-700 dark:bg-stone-900 dark:text-stone-100"
      >
        <h2 id="delete-title" className="text-lg font-semibold">
          Delete “{deleting?.title ?? "Untitled conversation"}”?
        </h2>
        <p className="mt-2 text-sm text-stone-700 dark:text-stone-300">
          Its questions, answers and citations are deleted for good.
        </p>
        <div className="mt-4 flex justify-end gap-2">
          <button
            type="button"
            onClick={() => dialog.current?.close()}
            className="rounded-lg border px-3 py-1.5"
          >
            Cancel
          </button>
          <button
            type="button"
            onClick={() => deleting && remove(deleting)}
            className="rounded-lg bg-red-700 px-3 py-1.5 font-semibold text-white"
          >
            Delete conversation
          </button>
        </div>
      </dialog>
    </nav>
  );
}

function PencilIcon() {
  return <Icon path="M13.5 3.5l3 3L7 16H4v-3z" />;
}

function TrashIcon() {
  return <Icon path="M4 6h12M8 6V4h4v2M6 6l1 10h6l1-10" />;
}

function Icon({ path }: { path: string }) {
  return (
    <svg
      viewBox="0 0 20 20"
      width="16"
      height="16"
      aria-hidden="true"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.6"
    >
      <path d={path} strokeLinejoin="round" strokeLinecap="round" />
    </svg>
  );
}
