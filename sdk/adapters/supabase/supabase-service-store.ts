/** A `ServiceStore` on Supabase's Data API: every call runs as the signed-in user, so row-level security applies. */
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { z } from "zod";
import { CitedError, titleFrom } from "../../core/index.ts";
import { conversationRenameSchema, pdfTokenSchema } from "../../core/wire.ts";
import { newMessageId } from "../../server/message-id.ts";
import type { ServiceStore } from "../../server/service-store.ts";
import {
  citedReferenceRows,
  conversationRowSchema,
  messageRowSchema,
  referenceRowSchema,
} from "../../server/sql/service-store-rows.ts";

export interface SupabaseServiceStoreOptions {
  /** A client that carries the signed-in user's access token (`createSupabaseUserClient`), one per request. */
  client: SupabaseClient;
  /**
   * The user that access token belongs to: the `id` your `authenticate` returned for the same
   * request (`createSupabaseAuthenticate` returns the verified token's `sub`). The database takes
   * the user from the token and never from this id; the store only compares each call's `userId`
   * with it, so that a store opened for one user and called for another fails loudly instead of
   * quietly acting as the token's user.
   */
  userId: string;
}

export interface SupabaseUserClientOptions {
  /** The project URL, e.g. `https://abcd.supabase.co`. */
  supabaseUrl: string;
  /** The publishable (or legacy anon) key; never the service-role key, which would bypass row-level security. */
  supabaseKey: string;
  /** The signed-in user's access token, as `authenticate` verified it. */
  accessToken: string;
  fetch?: typeof fetch;
}

/**
 * A failed call of the Supabase store: the Data API's error (`code` is PostgREST's or the
 * SQLSTATE, `status` the HTTP status, 0 when the request never got an answer), or
 * `user_mismatch` when a method was called for another user than the store was opened for.
 *
 * @example
 * if (SupabaseStoreError.isInstance(error) && error.code === "42501") console.warn("missing grant");
 */
export class SupabaseStoreError extends CitedError {
  static override readonly errorName: string = "SupabaseStoreError";
  readonly code: string;
  readonly status: number;
  readonly details: string | null;
  readonly hint: string | null;

  constructor(
    message: string,
    problem: { code: string; status: number; details?: string | null; hint?: string | null },
  ) {
    super(message);
    this.code = problem.code;
    this.status = problem.status;
    this.details = problem.details ?? null;
    this.hint = problem.hint ?? null;
  }
}

/**
 * A supabase-js client for one request, acting as the user whose access token it carries: no
 * session of its own, nothing stored, nothing refreshed (the browser refreshes its session).
 *
 * @example
 * // In the handler's `store` function, which runs after authenticate accepted the request's token.
 * const accessToken = bearerToken(request);
 * if (accessToken === null) throw new Error("a request reached the store without its bearer token");
 * const client = createSupabaseUserClient({ supabaseUrl, supabaseKey, accessToken });
 */
export function createSupabaseUserClient(options: SupabaseUserClientOptions): SupabaseClient {
  return createClient(options.supabaseUrl, options.supabaseKey, {
    global: {
      headers: { Authorization: `Bearer ${options.accessToken}` },
      ...(options.fetch ? { fetch: options.fetch } : {}),
    },
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });
}

const uuidSchema = z.guid();
const isUuid = (id: string) => uuidSchema.safeParse(id).success;

/**
 * Creates a store that calls the functions of `sql/store-functions.sql` (the migration
 * `cited_store_functions`) through `client.rpc`, as the user of the client's token. The functions
 * run as that user (security invoker), so the policies of `sql/row-level-security.sql` decide
 * what is read and written; the service-role key is never needed. Rows are validated with the
 * same schemas as the SQL store's. Errors of the Data API are thrown as `SupabaseStoreError`;
 * rows that are not the user's are null (or false), as the `ServiceStore` contract says.
 *
 * @example
 * const store = createSupabaseServiceStore({
 *   client: createSupabaseUserClient({ supabaseUrl, supabaseKey, accessToken }),
 *   userId: user.id,
 * });
 */
export function createSupabaseServiceStore(options: SupabaseServiceStoreOptions): ServiceStore {
  const { client } = options;

  /** A store opened for one user and called for another is a wiring mistake in the host. */
  function checkUser(userId: string): void {
    if (userId !== options.userId) {
      throw new SupabaseStoreError(
        `This store acts for the user of its access token, not for ${JSON.stringify(userId)}`,
        { code: "user_mismatch", status: 0 },
      );
    }
  }

  /** An id that cannot be a conversation's needs no round trip: it is nobody's. */
  function nobodys(userId: string): null {
    checkUser(userId);
    return null;
  }

  /** Calls one store function as the token's user; the Data API's error becomes a thrown one. */
  async function call(userId: string, name: string, args: Record<string, unknown>): Promise<unknown> {
    checkUser(userId);
    const { data, error, status } = await client.rpc(name, args);
    if (error) {
      throw new SupabaseStoreError(`${name}: ${error.message}`, {
        code: error.code,
        status,
        details: error.details,
        hint: error.hint,
      });
    }
    return data;
  }

  return {
    async createConversation(userId, title) {
      return conversationRowSchema.parse(
        await call(userId, "cited_create_conversation", { new_title: title ?? null }),
      );
    },

    async listConversations(userId) {
      return z.array(conversationRowSchema).parse(await call(userId, "cited_list_conversations", {}));
    },

    async getConversation(userId, conversationId) {
      if (!isUuid(conversationId)) return nobodys(userId);
      const row = await call(userId, "cited_get_conversation", { conversation: conversationId });
      return conversationRowSchema.nullable().parse(row);
    },

    async renameConversation(userId, conversationId, title) {
      const { title: trimmed } = conversationRenameSchema.parse({ title });
      if (!isUuid(conversationId)) return nobodys(userId);
      const row = await call(userId, "cited_rename_conversation", {
        conversation: conversationId,
        new_title: trimmed,
      });
      return conversationRowSchema.nullable().parse(row);
    },

    async deleteConversation(userId, conversationId) {
      if (!isUuid(conversationId)) {
        checkUser(userId);
        return false;
      }
      return z
        .boolean()
        .parse(await call(userId, "cited_delete_conversation", { conversation: conversationId }));
    },

    async addUserMessage(userId, conversationId, text) {
      if (!isUuid(conversationId)) return nobodys(userId);
      const row = await call(userId, "cited_add_user_message", {
        conversation: conversationId,
        message: newMessageId(),
        question: text,
        question_title: titleFrom(text),
      });
      return messageRowSchema.nullable().parse(row);
    },

    async saveAnswer(userId, conversationId, messageId, answer, { partial }) {
      if (!isUuid(conversationId)) return nobodys(userId);
      const row = await call(userId, "cited_save_answer", {
        conversation: conversationId,
        message: messageId,
        answer_text: answer.text,
        answer_state: answer,
        is_partial: partial,
        cited: citedReferenceRows(answer),
      });
      return messageRowSchema.nullable().parse(row);
    },

    async listMessages(userId, conversationId) {
      if (!isUuid(conversationId)) return nobodys(userId);
      const rows = await call(userId, "cited_list_messages", { conversation: conversationId });
      return z.array(messageRowSchema).nullable().parse(rows);
    },

    async findReference(userId, messageId, referenceId) {
      const row = await call(userId, "cited_find_reference", { message: messageId, reference: referenceId });
      return referenceRowSchema.nullable().parse(row);
    },

    async replaceReferenceToken(userId, messageId, referenceId, token) {
      const { token: value, expires_at } = pdfTokenSchema.parse(token);
      const replaced = await call(userId, "cited_replace_reference_token", {
        message: messageId,
        reference: referenceId,
        token: value,
        expires_at,
      });
      return z.boolean().parse(replaced);
    },
  };
}
