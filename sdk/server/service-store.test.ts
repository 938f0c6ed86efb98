/** The ServiceStore contract on every engine: memory, SQL on PGlite, SQL on a real PostgreSQL server. */
import { readFileSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { inMemoryPgliteOptions } from "../../service/testing/pglite-template.ts";
import { postgresAvailable, startPostgres } from "../../service/testing/postgres.ts";
import { readFixture } from "../core/fixtures/fixture-streams.ts";
import { reduceAnswerText, titleFrom } from "../core/index.ts";
import { createMemoryServiceStore } from "./memory-service-store.ts";
import { newMessageId } from "./message-id.ts";
import { describeServiceStoreContract } from "./service-store.contract.ts";
import { serviceStoreMigrationSql, serviceStoreSql } from "./sql/service-store-schema.ts";
import { createSqlServiceStore } from "./sql-service-store.ts";

describeServiceStoreContract("memory", async () => ({ store: createMemoryServiceStore(), close() {} }));

/** One in-memory PGlite for the file: starting the WASM database is the slow part. */
let sharedPglite: PGlite | undefined;
const pglite = () => {
  sharedPglite ??= new PGlite(inMemoryPgliteOptions());
  return sharedPglite;
};
afterAll(async () => {
  await sharedPglite?.close();
});

describeServiceStoreContract("SQL on PGlite", async () => {
  const store = createSqlServiceStore({ client: pglite() });
  await store.migrate();
  return { store, close() {} };
});

describeServiceStoreContract("SQL on PGlite, in schema cited (migrated twice)", async () => {
  const store = createSqlServiceStore({ client: pglite(), schema: "cited" });
  await store.migrate();
  await store.migrate();
  return { store, close() {} };
});

describe.runIf(postgresAvailable)("on PostgreSQL", () => {
  describeServiceStoreContract("SQL on PostgreSQL (pg.Pool)", async () => {
    const postgres = await startPostgres();
    const pool = new pg.Pool({ connectionString: postgres.url, max: 4 });
    const store = createSqlServiceStore({ client: pool });
    await store.migrate();
    return {
      store,
      async close() {
        await pool.end();
        postgres.stop();
      },
    };
  });
});

describe("the SQL schema", () => {
  it("ships as sql/service-store.sql, the same text as the exported constant", () => {
    const file = readFileSync(new URL("./sql/service-store.sql", import.meta.url), "utf8");

    expect(file).toBe(serviceStoreMigrationSql);
    expect(serviceStoreSql("public")).toBe(serviceStoreMigrationSql);
    expect(file).toMatch(/create table if not exists "public"\.cited_references/);
  });

  it("runs as one script, as a Supabase migration would apply it, and again without harm", async () => {
    const database = pglite();
    await database.exec(serviceStoreMigrationSql);
    await database.exec(serviceStoreMigrationSql);
    const tables = await database.query<{ table_name: string }>(
      `select table_name from information_schema.tables
       where table_schema = 'public' and table_name like 'cited_%' order by 1`,
    );

    expect(tables.rows.map((row) => row.table_name)).toEqual([
      "cited_conversations",
      "cited_messages",
      "cited_references",
    ]);
  });
});

describe("the SQL store", () => {
  it("leaves no message or reference row of a deleted conversation behind", async () => {
    const database = pglite();
    const store = createSqlServiceStore({ client: database, schema: "deleting" });
    await store.migrate();
    const { id } = await store.createConversation("alice");
    await store.addUserMessage("alice", id, "What is R?");
    const answer = { ...reduceAnswerText(readFixture("answer-stream.ndjson")), messageId: newMessageId() };
    await store.saveAnswer("alice", id, answer.messageId, answer, { partial: false });

    await store.deleteConversation("alice", id);

    const left = await database.query<{ messages: number; references: number }>(
      `select (select count(*)::int from deleting.cited_messages) as messages,
              (select count(*)::int from deleting.cited_references) as references`,
    );
    expect(left.rows).toEqual([{ messages: 0, references: 0 }]);
  });
});

describe("titleFrom", () => {
  it("cuts a long question at a word boundary, counting emoji as one character", () => {
    const title = titleFrom(`${"😀 ".repeat(30)}${"word ".repeat(30)}`);

    expect(Array.from(title).length).toBeLessThanOrEqual(80);
    expect(title.endsWith("…")).toBe(true);
    expect(title).not.toMatch(/\uD83D…$/);
  });
});
