/** One small SQL interface over the two Postgres engines: embedded PGlite and a PostgreSQL server via `pg`. */
import { existsSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { Worker } from "node:worker_threads";
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

// Memory: the service must peak under 1 GiB, and PGlite alone reached ~1.1 GB.
// 1. V8 runs WASM with its baseline compiler (Liftoff), then recompiles hot functions with TurboFan in the background;
//    for Postgres's parser (`raw_parser`, one 105 KB WASM function) that takes ~600 MB of compiler memory for ~0.5 s,
//    a moment after the first statements and again during initdb. No PGlite or Postgres setting affects it, so WASM
//    stays on Liftoff (both flags: without dynamic tiering V8 recompiles every function eagerly), for ~25-30% more
//    database CPU time. Process-wide V8 flags, read when a module is compiled: set before PGlite compiles its own.
// 2. Postgres's default 128 MB buffer pool is resident from the start; 32 MB saves ~95 MB (files stay in the OS cache).
// 3. For a new data folder PGlite runs initdb in a second instance whose WASM memory and buffers (~300 MB) stay
//    resident until V8's next major GC, which may come late in an ingestion; in a worker thread its exit frees them.
const startParams = [...PGlite.defaultStartParams, "-c", "shared_buffers=32MB"];

async function createDataDir(dataDir: string): Promise<void> {
  const worker = new Worker(
    `const { workerData } = require("node:worker_threads");
     require(workerData.pglite).PGlite.create(workerData.options).then((database) => database.close());`,
    {
      eval: true,
      workerData: {
        pglite: createRequire(import.meta.url).resolve("@electric-sql/pglite"),
        options: { dataDir, startParams },
      },
    },
  );
  await new Promise<void>((resolve, reject) => {
    worker.once("error", reject);
    worker.once("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`initdb worker exited with ${code}`)),
    );
  });
}

export async function openPglite(dataDir: string): Promise<SqlClient> {
  mkdirSync(dataDir, { recursive: true });
  setFlagsFromString("--no-wasm-dynamic-tiering");
  setFlagsFromString("--no-wasm-tier-up");
  if (!existsSync(join(dataDir, "PG_VERSION"))) await createDataDir(dataDir);
  const database = await PGlite.create({ dataDir, startParams });
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

/** The database server cannot be reached (down, restarting, network): the request may succeed if retried. */
export class DatabaseUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`database unavailable: ${String(cause)}`, { cause });
    this.name = "DatabaseUnavailableError";
  }
}

const unreachableCodes = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENOTFOUND",
]);

/** SQLSTATE class 08 (connection exception) and 57P01-03 (shutdown, crash, not accepting connections yet). */
function isUnreachable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (
    typeof code === "string" &&
    (unreachableCodes.has(code) || code.startsWith("08") || /^57P0[123]$/.test(code))
  )
    return true;
  // pg's own connection failures carry no code.
  return /Connection terminated|timeout exceeded when trying to connect|not queryable/.test(error.message);
}

async function classified<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throw isUnreachable(error) ? new DatabaseUnavailableError(error) : error;
  }
}

export async function openPostgres(connectionString: string): Promise<SqlClient> {
  // Without a connect timeout a request would wait forever on an unreachable server.
  const pool = new pg.Pool({ connectionString, max: 8, connectionTimeoutMillis: 5000 });
  // A dropped idle connection must not crash the process; the next query gets a fresh one.
  pool.on("error", (error) => process.stderr.write(`postgres pool: ${error.message}\n`));
  await pool.query("select 1");
  const run = async <Row>(target: pg.Pool | pg.PoolClient, sql: string, params: readonly SqlValue[] = []) =>
    (await classified(target.query(sql, [...params]))).rows as Row[];
  return {
    engine: "postgres",
    query: (sql, params) => run(pool, sql, params),
    transaction: async (work) => {
      const connection = await classified(pool.connect());
      // The pool listens for errors of idle connections only. A lent one that loses the server between two
      // statements reports it as an 'error' event, which unheard would end the process; its next statement
      // then fails as unreachable ("not queryable").
      let lost: Error | null = null;
      const onLost = (error: Error) => {
        lost ??= error;
      };
      connection.on("error", onLost);
      const release = (broken: Error | null) => {
        connection.off("error", onLost);
        connection.release(broken ?? lost ?? undefined);
      };
      try {
        await connection.query("begin");
        const result = await work({ query: (sql, params) => run(connection, sql, params) });
        await connection.query("commit");
        release(null);
        return result;
      } catch (error) {
        // A connection that cannot even roll back is broken: the pool drops it instead of lending it again.
        const rolledBack = await connection.query("rollback").then(
          () => null,
          (rollbackError: Error) => rollbackError,
        );
        release(rolledBack);
        throw isUnreachable(error) ? new DatabaseUnavailableError(error) : error;
      }
    },
    execute: async (script) => {
      await pool.query(script);
    },
    close: () => pool.end(),
  };
}
