/** Key records: a last use written once a minute per key, and a cache that stays bounded and never outlives a revocation. */
import { randomBytes } from "node:crypto";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { temporaryPgliteDir } from "../testing/pglite-template.ts";
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

let client: SqlClient;
beforeAll(async () => {
  client = await openPglite(temporaryPgliteDir("cka-keys-"));
  await migrate(client);
  await client.execute(
    `insert into assistants (id, name) values ('asst_keys', 'Keys'), ('asst_flood', 'Flood')`,
  );
});
afterAll(async () => {
  await client.close();
});

describe("a key's last use", () => {
  const lastUsed = async (id: string) =>
    (await createKeyStore(client).list("asst_keys")).find((key) => key.id === id)?.lastUsedAt;

  it("is written once when several first requests with the key arrive together", async () => {
    const { watched, queryable } = watchedDatabase(client);
    const keys = createKeyStore(queryable);
    const { id } = await keys.create("asst_keys", ["ask"], "busy");
    await Promise.all([keys.recordUse(id), keys.recordUse(id), keys.recordUse(id)]);
    expect(watched.useWrites).toBe(1);
    expect(await lastUsed(id)).toEqual(expect.any(Date));
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
    expect(await lastUsed(id)).toEqual(expect.any(Date));
  });

  it("is written at most once a minute by all processes sharing the database", async () => {
    const first = createKeyStore(client);
    const second = createKeyStore(client);
    const { id } = await first.create("asst_keys", ["ask"], "shared");
    await first.recordUse(id);
    const written = await lastUsed(id);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await second.recordUse(id);
    expect(await lastUsed(id)).toEqual(written);
  });
});

/** The real database, with its key lookups counted by the id looked up. */
function countedLookups(db: SqlQueryable) {
  const lookups = new Map<string, number>();
  const queryable: SqlQueryable = {
    query<Row>(sql: string, params?: readonly SqlValue[]): Promise<Row[]> {
      if (sql.includes("from api_keys where id = $1")) {
        const id = String(params?.[0]);
        lookups.set(id, (lookups.get(id) ?? 0) + 1);
      }
      return db.query<Row>(sql, params);
    },
  };
  const total = () => [...lookups.values()].reduce((sum, count) => sum + count, 0);
  return { lookups, total, queryable };
}

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;
const heapUsedAfterCollection = () => {
  collectGarbage();
  return process.memoryUsage().heapUsed;
};

const alphanumeric = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
/** A well-formed key whose id no record has. */
const unknownKey = () =>
  `cka_live_${Array.from(randomBytes(20), (byte) => alphanumeric[byte % alphanumeric.length]).join("")}_${randomBytes(32).toString("base64url")}`;

describe("the key cache under a flood of unknown keys", () => {
  it("keeps at most its limit of records, however many unknown keys are tried", async () => {
    const { total, queryable } = countedLookups(client);
    const keys = createKeyStore(queryable, { cacheMs: 60_000, limit: 50 });
    const flood = Array.from({ length: 400 }, unknownKey);
    for (const key of flood) expect(await keys.verify(key)).toBeNull();
    expect(total()).toBe(400);
    // Whatever is still cached is answered without the database: at most the limit.
    for (const key of flood) expect(await keys.verify(key)).toBeNull();
    expect(800 - total()).toBeLessThanOrEqual(50);
  });

  it("holds no more memory after 50,000 unknown keys than after its first thousand", async () => {
    const emptyDatabase: SqlQueryable = { query: <Row>() => Promise.resolve<Row[]>([]) };
    const keys = createKeyStore(emptyDatabase, { cacheMs: 60_000, limit: 1_000 });
    for (let index = 0; index < 1_000; index += 1) await keys.verify(unknownKey());
    const before = heapUsedAfterCollection();
    for (let index = 0; index < 50_000; index += 1) await keys.verify(unknownKey());
    const grown = heapUsedAfterCollection() - before;
    // Unbounded, the 49,000 new ids held about 12 MB (about 250 bytes each).
    expect(grown).toBeLessThan(2 * 1024 * 1024);
    // Still in use, so the collection above could not free its cache.
    expect(await keys.verify(unknownKey())).toBeNull();
  });

  it("keeps serving a genuine key from memory while unknown keys flood in", async () => {
    const { lookups, queryable } = countedLookups(client);
    const keys = createKeyStore(queryable, { cacheMs: 60_000, limit: 50 });
    const { id, key } = await keys.create("asst_flood", ["ask"], "genuine");
    expect(await keys.verify(key)).toMatchObject({ id });
    for (let index = 0; index < 400; index += 1) await keys.verify(unknownKey());
    expect(await keys.verify(key)).toMatchObject({ id });
    expect(lookups.get(id)).toBe(1);
  });

  it("refuses a revoked key on its very next use", async () => {
    const keys = createKeyStore(client, { cacheMs: 60_000, limit: 50 });
    const { id, key } = await keys.create("asst_flood", ["ask"], "revoked");
    expect(await keys.verify(key)).toMatchObject({ id });
    await keys.revoke(id);
    expect(await keys.verify(key)).toBeNull();
  });

  it("refuses a revoked key on its next use even when a lookup read it just before the revocation", async () => {
    let releaseLookup = () => {};
    const lookupHeld = new Promise<void>((resolve) => {
      releaseLookup = resolve;
    });
    let holdLookups = false;
    const heldDatabase: SqlQueryable = {
      async query<Row>(sql: string, params?: readonly SqlValue[]): Promise<Row[]> {
        const rows = await client.query<Row>(sql, params);
        if (holdLookups && sql.includes("from api_keys where id = $1")) await lookupHeld;
        return rows;
      },
    };
    const keys = createKeyStore(heldDatabase, { cacheMs: 60_000, limit: 50 });
    const { id, key } = await keys.create("asst_flood", ["ask"], "raced");
    holdLookups = true;
    const concurrent = keys.verify(key);
    await keys.revoke(id);
    releaseLookup();
    holdLookups = false;
    // The request that raced the revocation may pass; the next one may not.
    await concurrent;
    expect(await keys.verify(key)).toBeNull();
  });

  it("looks a repeated unknown key up once, even on a shared database", async () => {
    const { total, queryable } = countedLookups(client);
    const keys = createKeyStore(queryable, { cacheMs: 0, limit: 50 });
    const key = unknownKey();
    for (let index = 0; index < 50; index += 1) expect(await keys.verify(key)).toBeNull();
    expect(total()).toBe(1);
  });

  it("on a shared database, sees a revocation made by another process on the key's next use", async () => {
    const here = createKeyStore(client, { cacheMs: 0, limit: 50 });
    const elsewhere = createKeyStore(client, { cacheMs: 0, limit: 50 });
    const { id, key } = await here.create("asst_flood", ["ask"], "shared");
    expect(await here.verify(key)).toMatchObject({ id });
    await elsewhere.revoke(id);
    expect(await here.verify(key)).toBeNull();
  });
});

describe("a key made to expire", () => {
  it("is accepted until its time and refused from then on, also from the cache", async () => {
    const keys = createKeyStore(client, { cacheMs: 60_000 });
    const made = Date.now();
    const { key, expiresAt } = await keys.create("asst_keys", ["ask"], "trial", 3600);
    expect(expiresAt?.getTime()).toBeGreaterThanOrEqual(made + 3600_000);
    expect(expiresAt?.getTime()).toBeLessThan(made + 3600_000 + 5_000);
    expect(await keys.verify(key)).not.toBeNull();
    vi.useFakeTimers({ now: expiresAt ?? 0, toFake: ["Date"] });
    try {
      expect(await keys.verify(key)).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it("is listed with when it expires, and a key without a time with none", async () => {
    const keys = createKeyStore(client);
    const lasting = await keys.create("asst_keys", ["rag"], "lasting");
    const brief = await keys.create("asst_keys", ["rag"], "brief", 60);
    const listed = await keys.list("asst_keys");
    expect(listed.find((record) => record.id === lasting.id)?.expiresAt).toBeNull();
    expect(listed.find((record) => record.id === brief.id)?.expiresAt).toEqual(brief.expiresAt);
  });
});
