/** ServiceStore: where the host keeps conversations, answers and who owns each reference. */

import type { AnswerState } from "../core/index.ts";
import type { Conversation, PdfToken, Reference, StoredMessage } from "../core/wire.ts";

export type { Conversation, StoredMessage } from "../core/wire.ts";

/** A reference of a stored answer, with the PDF token the host currently holds for it. */
export interface StoredReference {
  messageId: string;
  /** The conversation, which is also the service session the token is bound to. */
  conversationId: string;
  reference: Reference;
  /** The latest token (the reference's own until it is replaced); null for kinds without a PDF or uploaded image. */
  pdf: PdfToken | null;
  /** How many times the token was replaced by a refresh. */
  refreshes: number;
}

export interface SaveAnswerOptions {
  /** The answer was cut off before its done line (the browser left, or the stream broke). */
  partial: boolean;
}

/**
 * Storage of the server handler. Every read and write names the signed-in user (`userId`, the
 * `id` returned by `authenticate`) and acts only on that user's rows: anything unknown or owned
 * by someone else is `null` (or `false`), never an error, so callers cannot tell the two apart.
 * A Postgres implementation can back this with row-level security on `user_id`.
 *
 * Conversation ids are UUIDs (they are the service's `external_session`); message ids are
 * `msg_…` (an answer keeps the id the service gave it). A store keeps message ids unique either
 * per user or across users; where users can write messages themselves (the Supabase store's
 * functions take the id from the caller), per user, so that nobody can take the id of another
 * user's answer before it is saved.
 *
 * @example
 * const conversation = await store.createConversation(user.id);
 * await store.addUserMessage(user.id, conversation.id, "What is R?");
 * const messages = await store.listMessages(user.id, conversation.id);
 */
export interface ServiceStore {
  /** Creates an empty conversation. Without a title, the first question becomes its title. */
  createConversation(userId: string, title?: string): Promise<Conversation>;
  /** The user's conversations, most recently active first. */
  listConversations(userId: string): Promise<Conversation[]>;
  getConversation(userId: string, conversationId: string): Promise<Conversation | null>;
  /**
   * Gives the conversation a new title (trimmed; a ZodError unless 1 to 200 characters). Its
   * `updatedAt` and place in the list stay: only questions and answers make a conversation
   * recently active. Null when the conversation is not the user's.
   */
  renameConversation(userId: string, conversationId: string, title: string): Promise<Conversation | null>;
  /**
   * Deletes the conversation with its messages and the user's ownership of their references, so
   * their PDFs can no longer be served. False when the conversation is not the user's.
   */
  deleteConversation(userId: string, conversationId: string): Promise<boolean>;
  /** Appends the user's question; null when the conversation is not the user's. */
  addUserMessage(userId: string, conversationId: string, text: string): Promise<StoredMessage | null>;
  /**
   * Appends (or, for the same `messageId`, replaces) an answer with its final state, and records
   * the user's ownership of each of its references with the reference's PDF token. A token
   * already replaced by a refresh is kept. Null when the conversation is not the user's, or the
   * message id belongs to another conversation (of another user too, where ids are unique
   * across users).
   */
  saveAnswer(
    userId: string,
    conversationId: string,
    messageId: string,
    answer: AnswerState,
    options: SaveAnswerOptions,
  ): Promise<StoredMessage | null>;
  /** The conversation's messages in the order they were added; null when it is not the user's. */
  listMessages(userId: string, conversationId: string): Promise<StoredMessage[] | null>;
  /** The reference, only if `userId` owns the answer that cited it. */
  findReference(userId: string, messageId: string, referenceId: string): Promise<StoredReference | null>;
  /** Stores the token a refresh returned; false when the user does not own the reference. */
  replaceReferenceToken(
    userId: string,
    messageId: string,
    referenceId: string,
    token: PdfToken,
  ): Promise<boolean>;
}

/**
 * The short-lived token of a reference, if it has one: a `pdf_highlight` reference's, or an `image`
 * reference's for an uploaded image (they share the PDF token scheme and its refresh).
 *
 * @example
 * pdfTokenOf(answer.references.ref_abc)?.expires_at;
 */
export function pdfTokenOf(reference: Reference): PdfToken | null {
  if (reference.kind === "pdf_highlight") return reference.pdf;
  return reference.kind === "image" ? (reference.image ?? null) : null;
}
