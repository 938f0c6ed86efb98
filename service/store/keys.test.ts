/** Recording a key's last use: once a minute per key, never a failure for the request that used it. */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { temporaryDirectory } from "../testing/temporary-directory.ts";
import { createKeyStore } from "./keys.ts";
import { migrate } from "./migrate.ts";
import { openPglite, type SqlClient, type SqlQueryable, type SqlValue } from "./sql-client.ts";

/** The real database, with its `update api_keys set last_used_at` statements counted and, when told, failed. */
function watchedDatabase(db: SqlQueryable) {
  const watched = { useWrites: 0, failUseWrites: false };
  const queryable: SqlQueryable = {
    query<Row>(sql: string, params?: readonly SqlValue[]): Promise<Row[]> {
      if (sql.includes("set last_used_at")) {
        watched.useWrites += 1;
        if (watched.failUseWrites) return Promise.reject(new Error("connection terminated unexpectedly"));
      }
      return db.query<Row>(sql, params);
    },
  };
  return { watched, queryable };
}

describe("a key's last use", () => {
  let client: SqlClient;
  beforeAll(async () => {
    client = await openPglite(temporaryDirectory("cka-keys-"));
    await migrate(client);
    await client.execute(`insert into assistants (id, name) values ('asst_keys', 'Keys')`);
  });
  afterAll(async () => {
    await client.close();
  });

  const lastUsed = async (id: string) =>
    (await createKeyStore(client).list("asst_keys")).find((key) => key.id === id)?.last_used_at;

  it("is written once when several first requests with the key arrive together", async () => {
    const { watched, queryable } = watchedDatabase(client);
    const keys = createKeyStore(queryable);
    const { id } = await keys.create("asst_keys", ["ask"], "busy");
    await Promise.all([keys.recordUse(id), keys.recordUse(id), keys.recordUse(id)]);
    expect(watched.useWrites).toBe(1);
    expect(await lastUsed(id)).toEqual(expect.any(String));
  });

  it("does not fail when the write fails, says so in one line, and is tried again on a later use", async () => {
    const { watched, queryable } = watchedDatabase(client);
    const keys = createKeyStore(queryable);
    const { id } = await keys.create("asst_keys", ["ask"], "degraded");
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      watched.failUseWrites = true;
      await expect(keys.recordUse(id)).resolves.toBeUndefined();
      expect(logged).toHaveBeenCalledTimes(1);
      expect(String(logged.mock.calls[0]?.[0])).toMatch(
        /could not record a use of key_.*connection terminated/,
      );
      expect(logged.mock.calls[0]).toHaveLength(1);
    } finally {
      logged.mockRestore();
    }
    watched.failUseWrites = false;
    await keys.recordUse(id);
    expect(watched.useWrites).toBe(2);
    expect(await lastUsed(id)).toEqual(expect.any(String));
  });

  it("is written at most once a minute by all processes sharing the database", async () => {
    const first = createKeyStore(client);
    const second = createKeyStore(client);
    const { id } = await first.create("asst_keys", ["ask"], "shared");
    await first.recordUse(id);
    const written = await lastUsed(id);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await second.recordUse(id);
    expect(await lastUsed(id)).toBe(written);
  });
});
