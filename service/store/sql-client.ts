/** One small SQL interface over the two Postgres engines: embedded PGlite and a PostgreSQL server via `pg`. */
import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";

export type SqlValue = string | number | boolean | null | Date | Uint8Array | readonly string[];

export interface SqlQueryable {
  query<Row>(sql: string, params?: readonly SqlValue[]): Promise<Row[]>;
}

export interface SqlClient extends SqlQueryable {
  /** Runs `work` in one transaction; a thrown error rolls it back. */
  transaction<T>(work: (transaction: SqlQueryable) => Promise<T>): Promise<T>;
  /** Runs several statements (migrations). */
  execute(script: string): Promise<void>;
  close(): Promise<void>;
  readonly engine: "pglite" | "postgres";
}

export async function openPglite(dataDir: string): Promise<SqlClient> {
  mkdirSync(dataDir, { recursive: true });
  const database = await PGlite.create({ dataDir });
  const run = async <Row>(target: Pick<PGlite, "query">, sql: string, params: readonly SqlValue[] = []) =>
    (await target.query<Row>(sql, [...params])).rows;
  return {
    engine: "pglite",
    query: (sql, params) => run(database, sql, params),
    transaction: (work) =>
      database.transaction((transaction) => work({ query: (sql, params) => run(transaction, sql, params) })),
    execute: async (script) => {
      await database.exec(script);
    },
    close: () => database.close(),
  };
}

export async function openPostgres(connectionString: string): Promise<SqlClient> {
  const pool = new pg.Pool({ connectionString, max: 8 });
  // A dropped idle connection must not crash the process; the next query gets a fresh one.
  pool.on("error", (error) => process.stderr.write(`postgres pool: ${error.message}\n`));
  await pool.query("select 1");
  const run = async <Row>(target: pg.Pool | pg.PoolClient, sql: string, params: readonly SqlValue[] = []) =>
    (await target.query(sql, [...params])).rows as Row[];
  return {
    engine: "postgres",
    query: (sql, params) => run(pool, sql, params),
    transaction: async (work) => {
      const connection = await pool.connect();
      try {
        await connection.query("begin");
        const result = await work({ query: (sql, params) => run(connection, sql, params) });
        await connection.query("commit");
        return result;
      } catch (error) {
        await connection.query("rollback");
        throw error;
      } finally {
        connection.release();
      }
    },
    execute: async (script) => {
      await pool.query(script);
    },
    close: () => pool.end(),
  };
}
