/** API keys: shown once, stored as a hash, checked in constant time, revocable at once. */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { LRUCache } from "lru-cache";
import type { Scope } from "../../sdk/core/wire.ts";
import { randomId } from "../ids.ts";
import type { SqlQueryable } from "./sql-client.ts";

/** Every key starts with this, so a leaked key is recognisable by secret scanners. */
const keyPrefix = "cka_live_";

interface KeyRow {
  id: string;
  assistant_id: string;
  name: string | null;
  scopes: string[];
  prefix: string;
  hash: string;
  created_at: Date;
  revoked_at: Date | null;
  last_used_at: Date | null;
  expires_at: Date | null;
}

/** A key as the sharing area lists it: never its secret, which only its creation shows. */
export interface StoredKey {
  id: string;
  assistantId: string;
  name: string | null;
  scopes: Scope[];
  /** The key's first characters, enough to tell keys apart. */
  prefix: string;
  createdAt: Date;
  revokedAt: Date | null;
  /** Written at most once a minute, so up to a minute behind; null if never used. */
  lastUsedAt: Date | null;
  /** From when the key is refused; null for a key that does not expire. */
  expiresAt: Date | null;
}

/** A key just made, with the key itself: the one time it is known. */
export interface CreatedKey extends StoredKey {
  key: string;
}

const toRecord = (row: KeyRow): StoredKey => ({
  id: row.id,
  assistantId: row.assistant_id,
  name: row.name,
  scopes: row.scopes as Scope[],
  prefix: row.prefix,
  createdAt: row.created_at,
  revokedAt: row.revoked_at,
  lastUsedAt: row.last_used_at,
  expiresAt: row.expires_at,
});

const hashSecret = (secret: string) => createHash("sha256").update(secret).digest("hex");

/** `cka_live_<key id without its prefix>_<secret>`: the id finds the record, the secret is compared in constant time. */
function parseKey(key: string): { id: string; secret: string } | null {
  const match = /^cka_live_([A-Za-z0-9]{20})_([A-Za-z0-9_-]{43})$/.exec(key);
  return match ? { id: `key_${match[1]}`, secret: match[2]! } : null;
}

/** A key's use is written at most this often, so authenticating a request seldom costs a write. */
const useRecordMs = 60_000;

export interface VerifiedKey {
  id: string;
  assistantId: string;
  scopes: Scope[];
}

/** Unknown ids are remembered this long: a key id is random and made at creation, so none turns known later. */
const unknownMs = 60_000;

export interface KeyCacheOptions {
  /**
   * How long a known key's record is kept in memory; 0 looks it up on every use. Only safe above 0 when this
   * process is the only writer (embedded storage): a revocation made by another process goes unseen until then.
   */
  cacheMs: number;
  /** Most known records, and most unknown ids, kept each; the least recently used go first. */
  limit?: number;
}

export function createKeyStore(db: SqlQueryable, options: KeyCacheOptions = { cacheMs: 0 }) {
  const columns =
    "id, assistant_id, name, scopes, prefix, hash, created_at, revoked_at, last_used_at, expires_at";
  const limit = options.limit ?? 10_000;
  // Two caches, so a flood of made-up keys pushes out only made-up keys, never the records of real ones.
  const known =
    options.cacheMs > 0 ? new LRUCache<string, KeyRow>({ max: limit, ttl: options.cacheMs }) : undefined;
  const unknown = new LRUCache<string, true>({ max: limit, ttl: unknownMs });
  /** When this process last wrote each key's use. */
  const usesWritten = new Map<string, number>();
  /** Counts revocations and deletions, so a lookup that read a record before one of them does not cache it. */
  let changes = 0;
  const lookup = async (id: string): Promise<KeyRow | undefined> => {
    const cached = known?.get(id);
    if (cached || unknown.has(id)) return cached;
    const changesBefore = changes;
    const [row] = await db.query<KeyRow>(`select ${columns} from api_keys where id = $1`, [id]);
    if (!row) unknown.set(id, true);
    else if (changes === changesBefore) known?.set(id, row);
    return row;
  };
  return {
    /** Drops every cached record, e.g. after an assistant (and so its keys) was deleted. */
    forgetAll(): void {
      changes += 1;
      known?.clear();
    },
    /** `expiresInSeconds`: the key is refused from then on; null, never. */
    async create(
      assistantId: string,
      scopes: Scope[],
      name: string | null,
      expiresInSeconds: number | null = null,
    ): Promise<CreatedKey> {
      const id = randomId("key");
      const secret = randomBytes(32).toString("base64url");
      const key = `${keyPrefix}${id.slice(4)}_${secret}`;
      // This process's clock, which verify() compares with: the database's may differ from it.
      const expiresAt = expiresInSeconds === null ? null : new Date(Date.now() + expiresInSeconds * 1000);
      const [row] = await db.query<KeyRow>(
        `insert into api_keys (id, assistant_id, name, scopes, prefix, hash, expires_at)
         values ($1, $2, $3, $4::text[], $5, $6, $7) returning ${columns}`,
        [id, assistantId, name, scopes, key.slice(0, keyPrefix.length + 6), hashSecret(secret), expiresAt],
      );
      return { ...toRecord(row!), key };
    },
    async list(assistantId: string): Promise<StoredKey[]> {
      const rows = await db.query<KeyRow>(
        `select ${columns} from api_keys where assistant_id = $1 order by created_order`,
        [assistantId],
      );
      return rows.map(toRecord);
    },
    async revoke(id: string): Promise<StoredKey | null> {
      const [row] = await db.query<KeyRow>(
        `update api_keys set revoked_at = coalesce(revoked_at, now()) where id = $1 returning ${columns}`,
        [id],
      );
      changes += 1;
      known?.delete(id);
      return row ? toRecord(row) : null;
    },
    /**
     * Notes that the key authenticated a request: written when this process has not written it in the last
     * minute, and then only if no other process has either (several may share a PostgreSQL). Marked before
     * the write, so concurrent first requests write once. The promise never rejects: a caller on the
     * request path need not wait, and a failed write (logged in one line) is tried again on a later use.
     */
    recordUse(id: string): Promise<void> {
      const written = usesWritten.get(id);
      if (written !== undefined && performance.now() - written < useRecordMs) return Promise.resolve();
      usesWritten.set(id, performance.now());
      return db
        .query(
          `update api_keys set last_used_at = now()
         where id = $1 and (last_used_at is null or last_used_at < now() - make_interval(secs => $2))`,
          [id, useRecordMs / 1000],
        )
        .then(
          () => {},
          (error: unknown) => {
            usesWritten.delete(id);
            console.error(
              `keys: could not record a use of ${id}: ${error instanceof Error ? error.message : String(error)}`,
            );
          },
        );
    },
    /** The key's record when the key is well formed, known, not revoked and not expired; otherwise null. */
    async verify(key: string): Promise<VerifiedKey | null> {
      const parsed = parseKey(key);
      if (!parsed) return null;
      const row = await lookup(parsed.id);
      const expected = Buffer.from(row?.hash ?? "0".repeat(64), "hex");
      const matches = timingSafeEqual(expected, Buffer.from(hashSecret(parsed.secret), "hex"));
      if (!row || !matches || row.revoked_at) return null;
      if (row.expires_at !== null && row.expires_at.getTime() <= Date.now()) return null;
      return { id: row.id, assistantId: row.assistant_id, scopes: row.scopes as Scope[] };
    },
  };
}

export type KeyStore = ReturnType<typeof createKeyStore>;
