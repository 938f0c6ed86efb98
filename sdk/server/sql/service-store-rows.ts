/** The ServiceStore's rows as Postgres gives them (snake_case), checked and turned into host records. */
import { z } from "zod";
import type { AnswerState } from "../../core/index.ts";
import {
  answerStateSchema,
  conversationSchema,
  referenceSchema,
  storedMessageSchema,
} from "../../core/wire.ts";
import { pdfTokenOf, type StoredReference } from "../service-store.ts";

/** A timestamp as `pg` (a Date), PGlite or JSON (a string, any offset) gives it, as ISO 8601 in UTC. */
const timestampSchema = z.union([z.date(), z.string()]).transform((value) => new Date(value).toISOString());

/** jsonb arrives parsed from `pg`, PGlite and PostgREST; a client that leaves it as text is read too. */
const jsonbSchema = z.unknown().transform((value) => (typeof value === "string" ? JSON.parse(value) : value));

/** A `cited_conversations` row (id, title, created_at, updated_at) as a `Conversation`. */
export const conversationRowSchema = z
  .object({
    id: z.string(),
    title: z.string().nullable(),
    created_at: timestampSchema,
    updated_at: timestampSchema,
  })
  .transform((row) =>
    conversationSchema.parse({
      id: row.id,
      title: row.title,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    }),
  );

/** A `cited_messages` row as a `StoredMessage`, its answer checked against the answer state's schema. */
export const messageRowSchema = z
  .object({
    id: z.string(),
    conversation_id: z.string(),
    role: z.string(),
    content: z.string(),
    answer: jsonbSchema.pipe(answerStateSchema.nullable()),
    partial: z.boolean(),
    created_at: timestampSchema,
  })
  .transform((row) =>
    storedMessageSchema.parse({
      id: row.id,
      conversationId: row.conversation_id,
      role: row.role,
      text: row.content,
      answer: row.answer,
      partial: row.partial,
      createdAt: row.created_at,
    }),
  );

/** A `cited_references` row joined with its message's conversation and reference, as a `StoredReference`. */
export const referenceRowSchema = z
  .object({
    message_id: z.string(),
    conversation_id: z.string(),
    reference: jsonbSchema.pipe(referenceSchema),
    pdf_token: z.string().nullable(),
    pdf_expires_at: timestampSchema.nullable(),
    refreshes: z.coerce.number().int(),
  })
  .transform(
    (row): StoredReference => ({
      messageId: row.message_id,
      conversationId: row.conversation_id,
      reference: row.reference,
      pdf:
        row.pdf_token === null || row.pdf_expires_at === null
          ? null
          : { token: row.pdf_token, expires_at: row.pdf_expires_at },
      refreshes: row.refreshes,
    }),
  );

/** One reference of an answer as a `cited_references` row to insert (`jsonb_to_recordset` reads these). */
export interface CitedReferenceRow {
  reference_id: string;
  pdf_token: string | null;
  pdf_expires_at: string | null;
}

/**
 * The references of an answer with the PDF token each carries (null for kinds without a PDF).
 *
 * @example
 * await client.query("… jsonb_to_recordset($1::jsonb) …", [JSON.stringify(citedReferenceRows(answer))]);
 */
export function citedReferenceRows(answer: AnswerState): CitedReferenceRow[] {
  return Object.values(answer.references).map((reference) => {
    const pdf = pdfTokenOf(reference);
    return {
      reference_id: reference.id,
      pdf_token: pdf?.token ?? null,
      pdf_expires_at: pdf?.expires_at ?? null,
    };
  });
}
