"use client";
/**
 * Links to a new conversation: "New conversation" and the header's "Chat" and name. A click tells the chat
 * at once (`useNewChatClicks`): it clears, and an answer being written finishes in its own conversation.
 * The address alone cannot tell it, since a new chat is at /chat already until its first answer moves it.
 */
import Link from "next/link";
import { type ComponentProps, createContext, type ReactNode, useContext, useEffect, useState } from "react";

type Listener = () => void;

const NewChatListeners = createContext<Set<Listener> | null>(null);

export function NewChatProvider({ children }: { children: ReactNode }) {
  const [listeners] = useState(() => new Set<Listener>());
  return <NewChatListeners value={listeners}>{children}</NewChatListeners>;
}

/** `href`: the chat's own address; default the app's chat, `/chat`. */
export function NewChatLink({
  onClick,
  href = "/chat",
  ...props
}: Omit<ComponentProps<typeof Link>, "href"> & { href?: string }) {
  const listeners = useContext(NewChatListeners);
  return (
    <Link
      href={href}
      {...props}
      onClick={(event) => {
        onClick?.(event);
        for (const listener of listeners ?? []) listener();
      }}
    />
  );
}

/** Calls `listener` (keep it stable) whenever a link to a new conversation is clicked. */
export function useNewChatClicks(listener: Listener): void {
  const listeners = useContext(NewChatListeners);
  useEffect(() => {
    listeners?.add(listener);
    return () => {
      listeners?.delete(listener);
    };
  }, [listeners, listener]);
}
