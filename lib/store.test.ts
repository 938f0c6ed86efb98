import { readdirSync, readFileSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { describe, expect, it } from "vitest";
import { readFixture } from "@/sdk/core/fixtures/fixture-streams.ts";
import { reduceAnswerText } from "@/sdk/core/index.ts";
import { createSqlServiceStore } from "@/sdk/server/index.ts";
import { newMessageId } from "@/sdk/server/message-id.ts";
import { inMemoryPgliteOptions } from "@/service/testing/pglite-template.ts";
import { applyMigrations } from "./store.ts";

const migrations = new URL("../supabase/migrations/", import.meta.url);
const tablesMigration = "20261124000000_cited_service_store.sql";
const securityMigration = "20261124010000_cited_row_level_security.sql";
const privateTablesMigration = "20261124015000_cited_private_tables.sql";
const read = (file: URL) => readFileSync(file, "utf8");
const recordedAnswer = reduceAnswerText(readFixture("answer-stream.ndjson"));
/** The recorded answer's PDF reference. */
const pdfReferenceId = "ref_7Hq2mX9pLc";

describe("the embedded store", () => {
  it("is made by the same SQL the SDK ships, so embedded and Supabase have one schema", () => {
    expect(read(new URL(tablesMigration, migrations))).toBe(
      read(new URL("../sdk/server/sql/service-store.sql", import.meta.url)),
    );
    expect(read(new URL(securityMigration, migrations))).toBe(
      read(new URL("../sdk/adapters/supabase/sql/row-level-security.sql", import.meta.url)),
    );
    expect(read(new URL(privateTablesMigration, migrations))).toBe(
      read(new URL("../sdk/adapters/supabase/sql/private-tables.sql", import.meta.url)),
    );
  });

  it("applies the migrations once, and a store on them keeps a conversation", async () => {
    const database = await PGlite.create(inMemoryPgliteOptions());
    try {
      const applied = await applyMigrations(database);
      expect(applied).toEqual(
        readdirSync(migrations)
          .filter((name) => name.endsWith(".sql"))
          .sort(),
      );
      expect(applied.slice(0, 3)).toEqual([tablesMigration, securityMigration, privateTablesMigration]);
      expect(await applyMigrations(database)).toEqual([]);
      const store = createSqlServiceStore({ client: database, schema: "cited" });
      const conversation = await store.createConversation("alice");
      await store.addUserMessage("alice", conversation.id, "What is FTBFS?");
      expect((await store.listConversations("alice")).map((item) => item.title)).toEqual(["What is FTBFS?"]);
      expect(await store.listConversations("bob")).toEqual([]);
    } finally {
      await database.close();
    }
  });

  it("keeps a developer's conversations, answers and references from before row-level security when the new migrations move them to schema cited", async () => {
    const database = await PGlite.create(inMemoryPgliteOptions());
    try {
      // A store folder made when the tables' migration was the only one.
      await database.exec(read(new URL(tablesMigration, migrations)));
      await database.exec(
        "create table cited_app_migrations (name text primary key, applied_at timestamptz not null default now())",
      );
      await database.query("insert into cited_app_migrations (name) values ($1)", [tablesMigration]);
      const before = createSqlServiceStore({ client: database });
      const conversation = await before.createConversation("alice");
      const question = await before.addUserMessage("alice", conversation.id, "What is FTBFS?");
      const answer = await before.saveAnswer("alice", conversation.id, newMessageId(), recordedAnswer, {
        partial: false,
      });
      if (answer === null) throw new Error("the answer was not saved");

      expect(await applyMigrations(database)).toEqual(
        expect.arrayContaining([securityMigration, privateTablesMigration]),
      );
      const after = createSqlServiceStore({ client: database, schema: "cited" });
      expect(await after.listMessages("alice", conversation.id)).toEqual([question, answer]);
      expect(await after.findReference("alice", answer.id, pdfReferenceId)).toMatchObject({
        conversationId: conversation.id,
      });
      // New rows still take their numbers from the moved sequences.
      const later = await after.createConversation("alice");
      await after.addUserMessage("alice", conversation.id, "And now?");
      expect((await after.listConversations("alice")).map((item) => item.id)).toEqual([
        conversation.id,
        later.id,
      ]);
      expect((await database.query("select to_regclass('public.cited_messages') as moved")).rows).toEqual([
        { moved: null },
      ]);
    } finally {
      await database.close();
    }
  });
});
