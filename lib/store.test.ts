import { readFileSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { describe, expect, it } from "vitest";
import { createSqlServiceStore } from "@/sdk/server/index.ts";
import { applyMigrations } from "./store.ts";

const migration = new URL("../supabase/migrations/20261124000000_cited_service_store.sql", import.meta.url);
const sdkSchema = new URL("../sdk/server/sql/service-store.sql", import.meta.url);

describe("the embedded store", () => {
  it("is made by the same SQL the SDK ships, so embedded and Supabase have one schema", () => {
    expect(readFileSync(migration, "utf8")).toBe(readFileSync(sdkSchema, "utf8"));
  });

  it("applies the migrations once, and a store on them keeps a conversation", async () => {
    const database = await PGlite.create();
    try {
      expect(await applyMigrations(database)).toEqual(["20261124000000_cited_service_store.sql"]);
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
});
