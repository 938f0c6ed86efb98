/** PostgreSQL full-text search as a retrieval peer: ts_rank_cd over a GIN-indexed English tsvector. */
import pg from "pg";
import type { PeerEngine } from "./peers.ts";
import type { CorpusPassage } from "./synthetic-corpus.ts";

export interface PostgresFts extends PeerEngine {
  close(): Promise<void>;
}

/** Loads the passages into their own table of the database at `url`; any word of the question may match. */
export async function createPostgresFts(
  url: string,
  passages: readonly CorpusPassage[],
): Promise<PostgresFts> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const table = `fts_${passages.length}`;
  await client.query(`drop table if exists ${table}`);
  await client.query(
    `create table ${table} (id text primary key, body text not null,
       document tsvector generated always as (to_tsvector('english', body)) stored)`,
  );
  const batch = 1000;
  for (let start = 0; start < passages.length; start += batch) {
    const rows = passages.slice(start, start + batch);
    await client.query(`insert into ${table} (id, body) select * from unnest($1::text[], $2::text[])`, [
      rows.map((row) => row.id),
      rows.map((row) => `${row.title}\n${row.heading}\n${row.text}`),
    ]);
  }
  await client.query(`create index on ${table} using gin (document)`);
  await client.query(`analyze ${table}`);
  // plainto_tsquery joins words with AND, which finds nothing for most questions; OR them instead.
  const sql = `select id from ${table},
      (select replace(plainto_tsquery('english', $1)::text, '&', '|')::tsquery as query) as question
    where document @@ query order by ts_rank_cd(document, query) desc limit 5`;
  return {
    name: "PostgreSQL FTS",
    search: async (query) => (await client.query<{ id: string }>(sql, [query])).rows.map((row) => row.id),
    close: () => client.end(),
  };
}
