/**
 * A Postgres for tests that looks like a Supabase project's database: supabase/local-platform.sql,
 * then every migration in order, on Debian's PostgreSQL or PGlite; statements run as a user the way
 * PostgREST runs them.
 */
import { readdirSync, readFileSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { inMemoryPgliteOptions } from "../../service/testing/pglite-template.ts";
import { postgresAvailable, startPostgres } from "../../service/testing/postgres.ts";

export interface QueryResult {
  rows: Record<string, unknown>[];
  /** Rows inserted, updated or deleted by the statement. */
  affected: number;
}

export type Query = (sql: string, params?: unknown[]) => Promise<QueryResult>;

/** One connection as the superuser who owns the tables, so nothing it runs is held by row-level security. */
export interface SupabaseDatabase {
  query: Query;
  close(): Promise<void>;
}

/** The JWT claims PostgREST sets for a request: a signed-in user's, or anon's for the publishable key alone. */
export type Claims = { role: "authenticated"; sub: string; aud: "authenticated" } | { role: "anon" };

export const userClaims = (userId: string): Claims => ({
  role: "authenticated",
  sub: userId,
  aud: "authenticated",
});
export const anonClaims: Claims = { role: "anon" };

export interface Engine {
  name: string;
  available: boolean;
  open(): Promise<SupabaseDatabase>;
}

async function openPostgres(): Promise<SupabaseDatabase> {
  const postgres = await startPostgres();
  const client = new pg.Client({ connectionString: postgres.url });
  try {
    await client.connect();
  } catch (error) {
    postgres.stop();
    throw error;
  }
  return {
    async query(sql, params) {
      const result = await client.query(sql, params);
      return { rows: result.rows, affected: result.rowCount ?? 0 };
    },
    async close() {
      await client.end();
      postgres.stop();
    },
  };
}

async function openPglite(): Promise<SupabaseDatabase> {
  const database = await PGlite.create(inMemoryPgliteOptions());
  return {
    async query(sql, params) {
      // PGlite's query takes one statement; exec takes a script, as pg's query does without parameters.
      if (params === undefined) {
        const results = await database.exec(sql);
        const last = results.at(-1);
        return { rows: last?.rows ?? [], affected: last?.affectedRows ?? 0 };
      }
      const result = await database.query<Record<string, unknown>>(sql, params);
      return { rows: result.rows, affected: result.affectedRows ?? 0 };
    },
    close: () => database.close(),
  };
}

export const engines: Engine[] = [
  { name: "PostgreSQL", available: postgresAvailable, open: openPostgres },
  { name: "PGlite", available: true, open: openPglite },
];

const supabaseFolder = new URL("../", import.meta.url);

/** Applies what Supabase provides, then each migration in name order in its own transaction. */
export async function migrate(database: SupabaseDatabase): Promise<string[]> {
  await database.query(readFileSync(new URL("local-platform.sql", supabaseFolder), "utf8"));
  const folder = new URL("migrations/", supabaseFolder);
  const names = readdirSync(folder)
    .filter((name) => name.endsWith(".sql"))
    .sort();
  for (const name of names) {
    const sql = readFileSync(new URL(name, folder), "utf8");
    await inTransaction(database, () => database.query(sql));
  }
  return names;
}

async function inTransaction<T>(database: SupabaseDatabase, work: () => Promise<T>): Promise<T> {
  await database.query("begin");
  try {
    const result = await work();
    await database.query("commit");
    return result;
  } catch (error) {
    await database.query("rollback");
    throw error;
  }
}

/**
 * Runs `work` in a transaction as PostgREST runs a request: the claims' role taken for the
 * transaction and the claims in `request.jwt.claims`, where auth.uid() reads them. A failing
 * statement rolls the transaction back and its error is thrown on.
 */
export async function runAs<T>(
  database: SupabaseDatabase,
  claims: Claims,
  work: (query: Query) => Promise<T>,
): Promise<T> {
  return inTransaction(database, async () => {
    await database.query("select set_config('role', $1, true), set_config('request.jwt.claims', $2, true)", [
      claims.role,
      JSON.stringify(claims),
    ]);
    return work(database.query);
  });
}
