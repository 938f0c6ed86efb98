"use client";
/** What the chat shell (in the layout) shares with the conversation shown below it (the page). */
import { createContext, useContext } from "react";
import type { SourceList } from "@/sdk/core/wire.ts";
import type { OpenedEvidence } from "@/sdk/react/index.ts";
import type { LiveTurn } from "./live-turn";

export interface ChatContextValue {
  authScope: string;
  /** The turn being asked, with the conversation it belongs to. */
  live: LiveTurn | null;
  /** The conversation whose last question was just asked and failed with nothing to keep: no answer is coming. */
  failedIn: string | null;
  openEvidence(evidence: OpenedEvidence): void;
  /** The evidence open in the panel, so its answer marks the claim it backs. */
  openedEvidence: OpenedEvidence | null;
  /** What the assistant answers from, for the empty chat to name; null when the service could not say. */
  sources: Promise<SourceList | null>;
}

export const ChatContext = createContext<ChatContextValue | null>(null);

export function useChat(): ChatContextValue {
  const value = useContext(ChatContext);
  if (value === null) throw new Error("useChat is for components inside ChatShell");
  return value;
}
