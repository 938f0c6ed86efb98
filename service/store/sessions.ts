/** Session memory: which user a session belongs to, and its earlier turns. */
import { json } from "./rows.ts";
import type { SqlClient } from "./sql-client.ts";

export interface Turn {
  id: string;
  question: string;
  searchQuery: string;
  answer: string;
  refusal: boolean;
  passageIds: string[];
}

interface TurnRow {
  id: string;
  question: string;
  search_query: string;
  answer: string;
  refusal: boolean;
  passage_ids: unknown;
}

export function createSessionStore(db: SqlClient) {
  return {
    /** The session's owner, creating the session for `idUser` on first use. */
    async owner(assistantId: string, session: string, idUser: string): Promise<string> {
      await db.query(
        `insert into sessions (assistant_id, external_session, id_user) values ($1, $2, $3)
         on conflict (assistant_id, external_session) do nothing`,
        [assistantId, session, idUser],
      );
      const [row] = await db.query<{ id_user: string }>(
        "select id_user from sessions where assistant_id = $1 and external_session = $2",
        [assistantId, session],
      );
      return row!.id_user;
    },
    async recentTurns(assistantId: string, session: string, count: number): Promise<Turn[]> {
      const rows = await db.query<TurnRow>(
        `select id, question, search_query, answer, refusal, passage_ids from turns
         where assistant_id = $1 and external_session = $2 order by ordinal desc limit $3`,
        [assistantId, session, count],
      );
      return rows.reverse().map((row) => ({
        id: row.id,
        question: row.question,
        searchQuery: row.search_query,
        answer: row.answer,
        refusal: row.refusal,
        passageIds: json<string[]>(row.passage_ids),
      }));
    },
    async appendTurn(assistantId: string, session: string, turn: Turn): Promise<void> {
      await db.transaction(async (transaction) => {
        const [next] = await transaction.query<{ ordinal: number }>(
          `select coalesce(max(ordinal), 0) + 1 as ordinal from turns where assistant_id = $1 and external_session = $2`,
          [assistantId, session],
        );
        await transaction.query(
          `insert into turns (id, assistant_id, external_session, ordinal, question, search_query, answer, refusal, passage_ids)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb)`,
          [
            turn.id,
            assistantId,
            session,
            next!.ordinal,
            turn.question,
            turn.searchQuery,
            turn.answer,
            turn.refusal,
            JSON.stringify(turn.passageIds),
          ],
        );
      });
    },
    /** Records that a PDF token was renewed; false when it already was (each token renews once). */
    async markRefreshed(tokenId: string): Promise<boolean> {
      const rows = await db.query<{ token_id: string }>(
        "insert into pdf_refreshes (token_id) values ($1) on conflict do nothing returning token_id",
        [tokenId],
      );
      return rows.length > 0;
    },
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;
