import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresAvailable, startPostgres, type TestPostgres } from "../testing/postgres.ts";
import { DatabaseUnavailableError, openPostgres, type SqlClient } from "./sql-client.ts";

describe.skipIf(!postgresAvailable)("PostgreSQL client when the server crashes", () => {
  let postgres: TestPostgres;
  let db: SqlClient;
  beforeAll(async () => {
    postgres = await startPostgres();
    db = await openPostgres(postgres.url);
  }, 60_000);
  afterAll(async () => {
    await db?.close();
    postgres?.stop();
  });

  it("fails a transaction whose connection dies between two statements as unavailable, and the process lives on", async () => {
    let crashed!: () => void;
    const serverGone = new Promise<void>((resolve) => {
      crashed = resolve;
    });
    const transaction = db.transaction(async (open) => {
      await open.query("select 1");
      // The connection is checked out and idle here when the server goes: pg reports that as an
      // 'error' event on the connection, which would end the process if nobody listened.
      await serverGone;
      await open.query("select 2");
    });
    transaction.catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 100));
    postgres.halt();
    await new Promise((resolve) => setTimeout(resolve, 200));
    crashed();
    await expect(transaction).rejects.toBeInstanceOf(DatabaseUnavailableError);

    postgres.resume();
    expect(await db.query<{ one: number }>("select 1 as one")).toEqual([{ one: 1 }]);
  }, 60_000);
});
