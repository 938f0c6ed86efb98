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
    let between!: () => void;
    const betweenStatements = new Promise<void>((resolve) => {
      between = resolve;
    });
    let goOn!: () => void;
    const serverGone = new Promise<void>((resolve) => {
      goOn = resolve;
    });
    const transaction = db.transaction(async (open) => {
      await open.query("select 1");
      between();
      // The connection is lent and idle here when the server goes: pg reports that as an 'error' event on
      // the connection, which would end the process if nobody listened.
      await serverGone;
      await open.query("select 2");
    });
    await betweenStatements;
    postgres.halt();
    // pg hears of the closed socket a moment after the server has stopped.
    await new Promise((resolve) => setTimeout(resolve, 200));
    goOn();
    await expect(transaction).rejects.toBeInstanceOf(DatabaseUnavailableError);

    postgres.resume();
    expect(await db.query<{ one: number }>("select 1 as one")).toEqual([{ one: 1 }]);
  }, 60_000);
});
