/** The host endpoint's wire contract (browser ↔ `createServiceHandler`): bodies, records and ask updates. */
import { z } from "zod";
import type { AnswerState } from "../answer-state.ts";
import { activityLineSchema, askRequestSchema, doneLineSchema, statusLineSchema } from "./ask.ts";
import { messageIdSchema, problemDetailsSchema, referenceIdSchema } from "./common.ts";
import { ragRequestSchema } from "./rag.ts";
import { claimSchema, referenceSchema } from "./reference.ts";

/** A conversation of the signed-in user; its `id` is the service's `external_session`. */
export const conversationSchema = z.object({
  id: z.guid(),
  title: z.string().nullable(),
  createdAt: z.iso.datetime({ offset: true }),
  /** When the last question or answer was stored (renaming does not count), else `createdAt`. */
  updatedAt: z.iso.datetime({ offset: true }),
});

/**
 * An `AnswerState` as JSON. Claim numbers become string keys on the wire; a string-keyed record
 * is still a valid `Record<number, Claim>`, so the output type is `AnswerState` itself.
 */
export const answerStateSchema: z.ZodType<AnswerState> = z.object({
  messageId: messageIdSchema.nullable(),
  text: z.string(),
  claims: z.record(z.string().regex(/^[1-9]\d*$/), claimSchema),
  references: z.record(referenceIdSchema, referenceSchema),
  numbering: z.record(referenceIdSchema, z.int().min(1)),
  status: statusLineSchema.pick({ stage: true, message: true }).nullable(),
  activity: z.array(activityLineSchema.pick({ name: true, detail: true })),
  phase: z.enum(["streaming", "done", "error"]),
  refusal: z.boolean(),
  usage: doneLineSchema.shape.usage.nullable(),
  error: problemDetailsSchema.nullable(),
});

/** One turn of a conversation: the user's question, or the answer (with its final state). */
export const storedMessageSchema = z.object({
  id: messageIdSchema,
  conversationId: z.guid(),
  role: z.enum(["user", "assistant"]),
  /** The question, or the answer text with its markers. */
  text: z.string(),
  /** The reduced answer stream; null for user messages. */
  answer: answerStateSchema.nullable(),
  /** True when the answer was cut off (the browser left, or the stream broke) before its done line. */
  partial: z.boolean(),
  createdAt: z.iso.datetime({ offset: true }),
});

/** A title as a user types it: trimmed, then 1 to 200 characters. */
export const conversationTitleSchema = z.string().trim().min(1).max(200);

export const conversationCreateSchema = z.object({ title: conversationTitleSchema.optional() });

/** The body of `PATCH /conversations/{id}`. */
export const conversationRenameSchema = z.object({ title: conversationTitleSchema });

export const conversationListSchema = z.object({ conversations: z.array(conversationSchema) });
export const messageListSchema = z.object({ messages: z.array(storedMessageSchema) });

/** The ask body the browser sends; the handler adds `id_user` from the signed-in user. */
export const hostAskRequestSchema = askRequestSchema.omit({ id_user: true });

/** The rag body the browser sends; the handler adds `id_user`. */
export const hostRagRequestSchema = ragRequestSchema.omit({ id_user: true });

export const answerUpdateSchema = z.object({ type: z.literal("answer"), answer: answerStateSchema });
export const savedUpdateSchema = z.object({ type: z.literal("saved"), messageId: messageIdSchema });

/** One NDJSON line of the host's ask stream: answer snapshots, then `saved` once the answer is stored. */
export const serviceUpdateSchema = z.discriminatedUnion("type", [answerUpdateSchema, savedUpdateSchema]);

export const serviceUpdateTypes = ["answer", "saved"] as const;

export type Conversation = z.infer<typeof conversationSchema>;
export type StoredMessage = z.infer<typeof storedMessageSchema>;
export type ConversationCreate = z.infer<typeof conversationCreateSchema>;
export type ConversationRename = z.infer<typeof conversationRenameSchema>;
export type HostAskRequest = z.infer<typeof hostAskRequestSchema>;
export type HostRagRequest = z.input<typeof hostRagRequestSchema>;
export type AnswerUpdate = z.infer<typeof answerUpdateSchema>;
export type SavedUpdate = z.infer<typeof savedUpdateSchema>;
export type ServiceUpdate = z.infer<typeof serviceUpdateSchema>;
