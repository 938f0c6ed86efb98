/** Documents and their ingestion state; the queue that workers claim from. */
import { LRUCache } from "lru-cache";
import type { DocumentStatus } from "../../sdk/admin/schemas.ts";
import { randomId } from "../ids.ts";
import type { ChangeSignal } from "./change-signal.ts";
import { json } from "./rows.ts";
import type { SqlQueryable } from "./sql-client.ts";

interface DocumentRow {
  id: string;
  assistant_id: string;
  datasource_id: string;
  datasource_name: string;
  file_name: string;
  sha256: string;
  bytes: string | number;
  status: DocumentStatus;
  error: string | null;
  warnings: unknown;
  title: string | null;
  pages: number | null;
  pages_done: number | null;
  passages: number | null;
  passages_embedded: number | null;
  read_alone: boolean;
  lone_crashes: number;
  created_at: Date;
  updated_at: Date;
}

export interface StoredDocument {
  id: string;
  assistantId: string;
  datasourceId: string;
  datasourceName: string;
  fileName: string;
  status: DocumentStatus;
  /** Why it failed; null while it has not. */
  error: string | null;
  /** Empty when its reading raised none. */
  warnings: string[];
  bytes: number;
  sha256: string;
  title: string | null;
  pages: number | null;
  pagesDone: number | null;
  passages: number | null;
  /** Passages with vectors of the embedding model, told of a ready document only (another's may be stale). */
  passagesEmbedded: number | null;
  /** A crash of the service cut off an earlier reading of it: it is read with no other document beside it. */
  readAlone: boolean;
  /** Crashes of the service while it was reading this document and nothing else. */
  loneCrashes: number;
  createdAt: Date;
  updatedAt: Date;
}

const columns = `d.id, d.assistant_id, d.datasource_id, s.name as datasource_name, d.file_name, d.sha256, d.bytes,
  d.status, d.error, d.warnings, d.title, d.pages, d.pages_done, d.passages, d.passages_embedded, d.read_alone, d.lone_crashes, d.created_at, d.updated_at`;
const fromDocuments = "documents d join datasources s on s.id = d.datasource_id";

function toDocument(row: DocumentRow): StoredDocument {
  return {
    id: row.id,
    assistantId: row.assistant_id,
    datasourceId: row.datasource_id,
    datasourceName: row.datasource_name,
    fileName: row.file_name,
    status: row.status,
    error: row.error,
    warnings: json<string[]>(row.warnings),
    bytes: Number(row.bytes),
    sha256: row.sha256,
    title: row.title,
    pages: row.pages,
    pagesDone: row.pages_done,
    passages: row.passages,
    passagesEmbedded: row.status === "ready" ? row.passages_embedded : null,
    readAlone: row.read_alone,
    loneCrashes: row.lone_crashes,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export interface NewDocument {
  assistantId: string;
  datasourceId: string;
  fileName: string;
  sha256: string;
  bytes: number;
  /** A document known to be unusable at upload (empty, unsupported) is stored as failed with this reason. */
  failure?: string;
}

/** How long a claimed document stays leased to one worker before another may take it over, by default. */
export const leaseSeconds = 60;

/** Ready documents whose slice source is remembered, when the store may remember them. */
const sliceableEntries = 10_000;

/**
 * `changes` hears of every write that alters what `list` returns. With `cacheSliceable` (embedded storage,
 * where every write goes through this process and so through `changes`), `sliceable` answers from memory
 * until the next change.
 */
export function createDocumentStore(
  db: SqlQueryable,
  changes: ChangeSignal,
  options: { cacheSliceable: boolean } = { cacheSliceable: false },
) {
  const sliceableCache = options.cacheSliceable
    ? new LRUCache<string, { sha256: string; pages: number }>({ max: sliceableEntries })
    : null;
  let sliceableVersion = changes.version;
  const one = async (sql: string, params: Array<string | number | null>) => {
    const [row] = await db.query<DocumentRow>(sql, params);
    return row ? toDocument(row) : null;
  };
  const get = (id: string) => one(`select ${columns} from ${fromDocuments} where d.id = $1`, [id]);

  return {
    get,
    /** What the PDF endpoint needs of a document, in one lookup by primary key: a slice is on its hot path. */
    async sliceable(id: string): Promise<{ sha256: string; pages: number } | null> {
      if (sliceableVersion !== changes.version) {
        sliceableCache?.clear();
        sliceableVersion = changes.version;
      }
      const cached = sliceableCache?.get(id);
      if (cached) return cached;
      const version = changes.version;
      const [row] = await db.query<{ sha256: string; pages: number | null }>(
        "select sha256, pages from documents where id = $1 and status = 'ready'",
        [id],
      );
      if (!row?.pages) return null;
      const found = { sha256: row.sha256, pages: row.pages };
      // Not kept when a change landed while the row was read: it may be the row before that change.
      if (version === changes.version) sliceableCache?.set(id, found);
      return found;
    },
    /**
     * Adds a document, or returns the existing one when the same bytes are already in the datasource; an
     * existing one that had failed is read again from scratch, since uploading it again is asking for that.
     */
    async add(input: NewDocument): Promise<{ document: StoredDocument; duplicate: boolean }> {
      const id = randomId("doc");
      const written = await db.query<{ id: string }>(
        `insert into documents (id, assistant_id, datasource_id, file_name, sha256, bytes, status, error)
         values ($1, $2, $3, $4, $5, $6, $7, $8)
         on conflict (datasource_id, sha256) do update set status = excluded.status, error = excluded.error,
           warnings = '[]', pages = null, pages_done = null, passages = null, read_alone = false,
           lone_crashes = 0, lease_until = null, updated_at = now()
         where documents.status = 'failed'
         returning id`,
        [
          id,
          input.assistantId,
          input.datasourceId,
          input.fileName,
          input.sha256,
          input.bytes,
          input.failure ? "failed" : "queued",
          input.failure ?? null,
        ],
      );
      const [row] = written;
      if (row) {
        changes.notify();
        return { document: (await get(row.id))!, duplicate: row.id !== id };
      }
      const existing = await one(
        `select ${columns} from ${fromDocuments} where d.datasource_id = $1 and d.sha256 = $2`,
        [input.datasourceId, input.sha256],
      );
      return { document: existing!, duplicate: true };
    },
    async list(assistantId: string): Promise<StoredDocument[]> {
      const rows = await db.query<DocumentRow>(
        `select ${columns} from ${fromDocuments} where d.assistant_id = $1 order by d.created_order`,
        [assistantId],
      );
      return rows.map(toDocument);
    },
    /** The content hashes of every document's file, whatever its status: the files still needed. */
    async fileHashes(): Promise<Set<string>> {
      const rows = await db.query<{ sha256: string }>("select distinct sha256 from documents");
      return new Set(rows.map((row) => row.sha256));
    },
    async remove(assistantId: string, id: string): Promise<boolean> {
      const rows = await db.query<{ id: string }>(
        "delete from documents where assistant_id = $1 and id = $2 returning id",
        [assistantId, id],
      );
      if (rows.length > 0) changes.notify();
      return rows.length > 0;
    },
    /**
     * Takes the next document to read; safe across processes. Documents whose reading a crash cut off (requeued,
     * or still `processing` with a lapsed lease) come first and only to a caller reading nothing else, so that
     * a later crash during their reading has one suspect; such a crash counts against them (`loneCrashes`).
     * While one waits, a caller that is reading other documents gets nothing and should wait for them.
     */
    async claimNext(
      options: { othersInFlight?: boolean; leaseSeconds?: number } = {},
    ): Promise<StoredDocument | null> {
      const [row] = await db.query<{ id: string }>(
        `with next as (
           select id, (read_alone or status = 'processing') as suspect from documents
           where status = 'queued' or (status = 'processing' and lease_until < now())
           order by (read_alone or status = 'processing') desc, created_order limit 1 for update skip locked)
         update documents d set status = 'processing', error = null, pages_done = 0,
           lone_crashes = d.lone_crashes + case when d.status = 'processing' and d.read_alone then 1 else 0 end,
           read_alone = next.suspect, lease_until = now() + make_interval(secs => $1), updated_at = now()
         from next where d.id = next.id and ($2::int = 0 or not next.suspect)
         returning d.id`,
        [options.leaseSeconds ?? leaseSeconds, options.othersInFlight ? 1 : 0],
      );
      if (!row) return null;
      changes.notify();
      return get(row.id);
    },
    async renewLease(id: string, lease = leaseSeconds): Promise<void> {
      await db.query(
        "update documents set lease_until = now() + make_interval(secs => $2) where id = $1 and status = 'processing'",
        [id, lease],
      );
    },
    async progress(id: string, pagesDone: number, pages: number): Promise<void> {
      await db.query(
        "update documents set pages_done = $2, pages = $3, updated_at = now() where id = $1 and status = 'processing'",
        [id, pagesDone, pages],
      );
      changes.notify();
    },
    async fail(id: string, reason: string): Promise<void> {
      await db.query(
        "update documents set status = 'failed', error = $2, lease_until = null, updated_at = now() where id = $1",
        [id, reason],
      );
      changes.notify();
    },
    /**
     * After a crash of the only process that owns the data, nothing is being worked on: requeue it all, to be
     * read alone; a document that was already read alone is the crash's only suspect, and that is counted.
     */
    async requeueInterrupted(): Promise<number> {
      const rows = await db.query<{ id: string }>(
        `update documents set status = 'queued', lease_until = null, updated_at = now(), read_alone = true,
           lone_crashes = lone_crashes + case when read_alone then 1 else 0 end
         where status = 'processing' returning id`,
      );
      if (rows.length > 0) changes.notify();
      return rows.length;
    },
    async readyDocumentIds(assistantId: string): Promise<string[]> {
      const rows = await db.query<{ id: string }>(
        "select id from documents where assistant_id = $1 and status = 'ready' order by id",
        [assistantId],
      );
      return rows.map((row) => row.id);
    },
  };
}

export type DocumentStore = ReturnType<typeof createDocumentStore>;
