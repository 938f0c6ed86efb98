import { readdirSync, readFileSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { describe, expect, it } from "vitest";
import { createSqlServiceStore } from "@/sdk/server/index.ts";
import { applyMigrations } from "./store.ts";

const migrations = new URL("../supabase/migrations/", import.meta.url);
const tablesMigration = "20261124000000_cited_service_store.sql";
const securityMigration = "20261124010000_cited_row_level_security.sql";
const read = (file: URL) => readFileSync(file, "utf8");

describe("the embedded store", () => {
  it("is made by the same SQL the SDK ships, so embedded and Supabase have one schema", () => {
    expect(read(new URL(tablesMigration, migrations))).toBe(
      read(new URL("../sdk/server/sql/service-store.sql", import.meta.url)),
    );
    expect(read(new URL(securityMigration, migrations))).toBe(
      read(new URL("../sdk/adapters/supabase/sql/row-level-security.sql", import.meta.url)),
    );
  });

  it("applies the migrations once, and a store on them keeps a conversation", async () => {
    const database = await PGlite.create();
    try {
      const applied = await applyMigrations(database);
      expect(applied).toEqual(
        readdirSync(migrations)
          .filter((name) => name.endsWith(".sql"))
          .sort(),
      );
      expect(applied.slice(0, 2)).toEqual([tablesMigration, securityMigration]);
      expect(await applyMigrations(database)).toEqual([]);
      const store = createSqlServiceStore({ client: database });
      const conversation = await store.createConversation("alice");
      await store.addUserMessage("alice", conversation.id, "What is FTBFS?");
      expect((await store.listConversations("alice")).map((item) => item.title)).toEqual(["What is FTBFS?"]);
      expect(await store.listConversations("bob")).toEqual([]);
    } finally {
      await database.close();
    }
  });

  it("keeps a developer's conversations from before row-level security when the new migrations run", async () => {
    const database = await PGlite.create();
    try {
      // A store folder made when the tables' migration was the only one.
      await database.exec(read(new URL(tablesMigration, migrations)));
      await database.exec(
        "create table cited_app_migrations (name text primary key, applied_at timestamptz not null default now())",
      );
      await database.query("insert into cited_app_migrations (name) values ($1)", [tablesMigration]);
      const store = createSqlServiceStore({ client: database });
      const conversation = await store.createConversation("alice");
      const question = await store.addUserMessage("alice", conversation.id, "What is FTBFS?");

      expect(await applyMigrations(database)).toContain(securityMigration);
      expect(await store.listMessages("alice", conversation.id)).toEqual([question]);
    } finally {
      await database.close();
    }
  });
});
