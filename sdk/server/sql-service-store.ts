/** A `ServiceStore` on any Postgres through an injected client (`pg.Pool`, PGlite, …); one statement per call. */
import { z } from "zod";
import { titleFrom } from "../core/index.ts";
import { conversationRenameSchema, pdfTokenSchema } from "../core/wire.ts";
import { newMessageId } from "./message-id.ts";
import type { ServiceStore } from "./service-store.ts";
import {
  citedReferenceRows,
  conversationRowSchema,
  messageRowSchema,
  referenceRowSchema,
} from "./sql/service-store-rows.ts";
import { nextActivity, quoteIdentifier, serviceStoreStatements } from "./sql/service-store-schema.ts";

/** What the store needs of a database client; `pg.Pool`, `pg.Client` and `PGlite` all fit. */
export interface SqlQueryClient {
  query(sql: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
}

export interface SqlServiceStoreOptions {
  client: SqlQueryClient;
  /** Postgres schema of the tables. Default `public`. */
  schema?: string;
}

export interface SqlServiceStore extends ServiceStore {
  /** Creates the tables if they do not exist (the statements of `sql/service-store.sql`). */
  migrate(): Promise<void>;
}

const messageColumns = "m.id, m.conversation_id, m.role, m.content, m.answer, m.partial, m.created_at";
const uuidSchema = z.guid();

/**
 * Creates a store on the tables of `sql/service-store.sql` (run `migrate()` once, or apply the
 * file as a migration). Each method is one SQL statement, so a write is atomic without a
 * transaction, which a pooled client could not promise across calls. Rows are validated with
 * the host contract schemas on the way out.
 *
 * @example
 * import pg from "pg";
 * const store = createSqlServiceStore({ client: new pg.Pool({ connectionString: process.env.DATABASE_URL }) });
 * await store.migrate();
 */
export function createSqlServiceStore(options: SqlServiceStoreOptions): SqlServiceStore {
  const { client } = options;
  const schema = options.schema ?? "public";
  const conversations = `${quoteIdentifier(schema)}.cited_conversations`;
  const messages = `${quoteIdentifier(schema)}.cited_messages`;
  const references = `${quoteIdentifier(schema)}.cited_references`;
  const rows = async (sql: string, params: unknown[]) => (await client.query(sql, params)).rows;
  const isUuid = (id: string) => uuidSchema.safeParse(id).success;

  return {
    async migrate() {
      for (const statement of serviceStoreStatements(schema)) await client.query(statement, []);
    },

    async createConversation(userId, title) {
      const [row] = await rows(
        `insert into ${conversations} (id, user_id, title) values ($1, $2, $3)
         returning id, title, created_at, updated_at`,
        [crypto.randomUUID(), userId, title ?? null],
      );
      return conversationRowSchema.parse(row);
    },

    async listConversations(userId) {
      const found = await rows(
        `select id, title, created_at, updated_at from ${conversations}
         where user_id = $1 order by activity desc`,
        [userId],
      );
      return found.map((row) => conversationRowSchema.parse(row));
    },

    async getConversation(userId, conversationId) {
      if (!isUuid(conversationId)) return null;
      const [row] = await rows(
        `select id, title, created_at, updated_at from ${conversations} where id = $1 and user_id = $2`,
        [conversationId, userId],
      );
      return row === undefined ? null : conversationRowSchema.parse(row);
    },

    async renameConversation(userId, conversationId, title) {
      const { title: trimmed } = conversationRenameSchema.parse({ title });
      if (!isUuid(conversationId)) return null;
      // Neither updated_at nor activity: a new title is not activity, so the list keeps its order.
      const [row] = await rows(
        `update ${conversations} set title = $3 where id = $1 and user_id = $2
         returning id, title, created_at, updated_at`,
        [conversationId, userId, trimmed],
      );
      return row === undefined ? null : conversationRowSchema.parse(row);
    },

    async deleteConversation(userId, conversationId) {
      if (!isUuid(conversationId)) return false;
      // Its messages and their reference rows go with it: both foreign keys are "on delete cascade".
      const deleted = await rows(
        `delete from ${conversations} where id = $1 and user_id = $2 returning 1 as deleted`,
        [conversationId, userId],
      );
      return deleted.length > 0;
    },

    async addUserMessage(userId, conversationId, text) {
      if (!isUuid(conversationId)) return null;
      const [row] = await rows(
        `with owner as (
           update ${conversations} set title = coalesce(title, $4), updated_at = clock_timestamp(), activity = ${nextActivity(schema)}
           where id = $1 and user_id = $2 returning id
         )
         insert into ${messages} as m (id, conversation_id, user_id, role, content)
         select $3, owner.id, $2, 'user', $5 from owner
         returning ${messageColumns}`,
        [conversationId, userId, newMessageId(), titleFrom(text), text],
      );
      return row === undefined ? null : messageRowSchema.parse(row);
    },

    async saveAnswer(userId, conversationId, messageId, answer, { partial }) {
      if (!isUuid(conversationId)) return null;
      // An update of the user's own answer in this conversation, or else an insert; neither names
      // the key it may conflict on, so the statement runs both on service-store.sql, where message
      // ids are unique across users (another user's id: nothing inserted, null), and on the
      // Supabase migrations, where they are unique per user (cited_private_tables).
      const [row] = await rows(
        `with owner as (
           update ${conversations} set updated_at = clock_timestamp(), activity = ${nextActivity(schema)}
           where id = $1 and user_id = $2 returning id
         ), replaced as (
           update ${messages} as m set content = $4, answer = $5::jsonb, partial = $6
           from owner
           where m.id = $3 and m.user_id = $2 and m.conversation_id = owner.id and m.role = 'assistant'
           returning ${messageColumns}
         ), added as (
           insert into ${messages} as m (id, conversation_id, user_id, role, content, answer, partial)
           select $3, owner.id, $2, 'assistant', $4, $5::jsonb, $6 from owner
           where not exists (select from ${messages} where id = $3 and user_id = $2)
           on conflict do nothing
           returning ${messageColumns}
         ), saved as (
           select * from replaced union all select * from added
         ), owned as (
           insert into ${references} (message_id, reference_id, user_id, pdf_token, pdf_expires_at)
           select saved.id, cited.reference_id, $2, cited.pdf_token, cited.pdf_expires_at
           from saved cross join jsonb_to_recordset($7::jsonb)
             as cited (reference_id text, pdf_token text, pdf_expires_at timestamptz)
           on conflict do nothing
         )
         select * from saved m`,
        [
          conversationId,
          userId,
          messageId,
          answer.text,
          JSON.stringify(answer),
          partial,
          JSON.stringify(citedReferenceRows(answer)),
        ],
      );
      return row === undefined ? null : messageRowSchema.parse(row);
    },

    async listMessages(userId, conversationId) {
      if (!isUuid(conversationId)) return null;
      const found = await rows(
        `select ${messageColumns} from ${conversations} c
         left join ${messages} m on m.conversation_id = c.id
         where c.id = $1 and c.user_id = $2 order by m.position`,
        [conversationId, userId],
      );
      if (found.length === 0) return null;
      // The left join gives one row of nulls for a conversation without messages.
      return found
        .filter((row) => Reflect.get(Object(row), "id") !== null)
        .map((row) => messageRowSchema.parse(row));
    },

    async findReference(userId, messageId, referenceId) {
      const [row] = await rows(
        `select r.message_id, m.conversation_id, m.answer -> 'references' -> r.reference_id as reference,
                r.pdf_token, r.pdf_expires_at, r.refreshes
         from ${references} r join ${messages} m on m.id = r.message_id
         where r.message_id = $1 and r.reference_id = $2 and r.user_id = $3 and m.user_id = $3`,
        [messageId, referenceId, userId],
      );
      return row === undefined ? null : referenceRowSchema.parse(row);
    },

    async replaceReferenceToken(userId, messageId, referenceId, token) {
      const { token: value, expires_at } = pdfTokenSchema.parse(token);
      const updated = await rows(
        `update ${references} set pdf_token = $4, pdf_expires_at = $5, refreshes = refreshes + 1
         where message_id = $1 and reference_id = $2 and user_id = $3 returning 1 as updated`,
        [messageId, referenceId, userId, value, expires_at],
      );
      return updated.length > 0;
    },
  };
}
