/** A `ServiceStore` in process memory: for tests, demos and single-process development. */
import { type AnswerState, titleFrom } from "../core/index.ts";
import { conversationRenameSchema, type PdfToken } from "../core/wire.ts";
import { newMessageId } from "./message-id.ts";
import {
  type Conversation,
  pdfTokenOf,
  type ServiceStore,
  type StoredMessage,
  type StoredReference,
} from "./service-store.ts";

interface ConversationRecord {
  conversation: Conversation;
  userId: string;
  /** Bumped on every write, so "most recently active" has no ties within a millisecond. */
  activity: number;
  messages: StoredMessage[];
}

interface ReferenceRecord {
  userId: string;
  messageId: string;
  pdf: PdfToken | null;
  refreshes: number;
}

/**
 * Creates an empty in-memory store. Everything is lost when the process ends, and nothing is
 * shared between processes (or Next.js workers): use `createSqlServiceStore` beyond a demo.
 * Values are copied in and out, so callers cannot change stored state by mutating results.
 *
 * @example
 * const handler = createServiceHandler({ ...config, store: createMemoryServiceStore() });
 */
export function createMemoryServiceStore(): ServiceStore {
  const conversations = new Map<string, ConversationRecord>();
  /** Message id → the conversation that holds it. */
  const messageHomes = new Map<string, ConversationRecord>();
  /** `${messageId} ${referenceId}` → ownership and token. */
  const references = new Map<string, ReferenceRecord>();
  let activity = 0;

  const own = (userId: string, conversationId: string) => {
    const record = conversations.get(conversationId);
    return record && record.userId === userId ? record : null;
  };
  const touch = (record: ConversationRecord) => {
    activity += 1;
    record.activity = activity;
    record.conversation.updatedAt = new Date().toISOString();
  };

  return {
    async createConversation(userId, title) {
      const now = new Date().toISOString();
      const conversation = { id: crypto.randomUUID(), title: title ?? null, createdAt: now, updatedAt: now };
      activity += 1;
      conversations.set(conversation.id, { conversation, userId, activity, messages: [] });
      return { ...conversation };
    },

    async listConversations(userId) {
      return [...conversations.values()]
        .filter((record) => record.userId === userId)
        .sort((left, right) => right.activity - left.activity)
        .map((record) => ({ ...record.conversation }));
    },

    async getConversation(userId, conversationId) {
      const record = own(userId, conversationId);
      return record ? { ...record.conversation } : null;
    },

    async renameConversation(userId, conversationId, title) {
      const { title: trimmed } = conversationRenameSchema.parse({ title });
      const record = own(userId, conversationId);
      if (!record) return null;
      // Not touched: a new title is not activity, so the list keeps its order.
      record.conversation.title = trimmed;
      return { ...record.conversation };
    },

    async deleteConversation(userId, conversationId) {
      const record = own(userId, conversationId);
      if (!record) return false;
      conversations.delete(conversationId);
      const deleted = new Set(record.messages.map((message) => message.id));
      for (const messageId of deleted) messageHomes.delete(messageId);
      // By message, not by the final answers' references: an earlier version may have cited others.
      for (const [key, owned] of references) if (deleted.has(owned.messageId)) references.delete(key);
      return true;
    },

    async addUserMessage(userId, conversationId, text) {
      const record = own(userId, conversationId);
      if (!record) return null;
      const message: StoredMessage = {
        id: newMessageId(),
        conversationId,
        role: "user",
        text,
        answer: null,
        partial: false,
        createdAt: new Date().toISOString(),
      };
      record.messages.push(message);
      messageHomes.set(message.id, record);
      record.conversation.title ??= titleFrom(text);
      touch(record);
      return structuredClone(message);
    },

    async saveAnswer(userId, conversationId, messageId, answer, { partial }) {
      const record = own(userId, conversationId);
      const home = messageHomes.get(messageId);
      if (!record || (home && home !== record)) return null;
      const message: StoredMessage = {
        id: messageId,
        conversationId,
        role: "assistant",
        text: answer.text,
        answer: structuredClone(answer),
        partial,
        createdAt: new Date().toISOString(),
      };
      const index = record.messages.findIndex((existing) => existing.id === messageId);
      if (index !== -1 && record.messages[index]!.role !== "assistant") return null;
      if (index === -1) record.messages.push(message);
      else record.messages[index] = { ...message, createdAt: record.messages[index]!.createdAt };
      messageHomes.set(messageId, record);
      recordReferences(userId, messageId, answer);
      touch(record);
      return structuredClone(record.messages[index === -1 ? record.messages.length - 1 : index]!);
    },

    async listMessages(userId, conversationId) {
      const record = own(userId, conversationId);
      return record ? structuredClone(record.messages) : null;
    },

    async findReference(userId, messageId, referenceId) {
      const owned = references.get(`${messageId} ${referenceId}`);
      const home = messageHomes.get(messageId);
      const reference = home?.messages.find((message) => message.id === messageId)?.answer?.references[
        referenceId
      ];
      if (!owned || owned.userId !== userId || !home || !reference) return null;
      const found: StoredReference = {
        messageId,
        conversationId: home.conversation.id,
        reference,
        pdf: owned.pdf,
        refreshes: owned.refreshes,
      };
      return structuredClone(found);
    },

    async replaceReferenceToken(userId, messageId, referenceId, token) {
      const owned = references.get(`${messageId} ${referenceId}`);
      if (!owned || owned.userId !== userId) return false;
      owned.pdf = { ...token };
      owned.refreshes += 1;
      return true;
    },
  };

  function recordReferences(userId: string, messageId: string, answer: AnswerState): void {
    for (const reference of Object.values(answer.references)) {
      const key = `${messageId} ${reference.id}`;
      if (references.has(key)) continue;
      references.set(key, { userId, messageId, pdf: pdfTokenOf(reference), refreshes: 0 });
    }
  }
}
