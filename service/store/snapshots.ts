/** Index snapshots kept with the data, so a restart loads the index instead of re-reading documents. */
import { turnOfEventLoop } from "../event-loop.ts";
import { json } from "./rows.ts";
import type { SqlClient } from "./sql-client.ts";

export interface IndexSnapshot {
  documentIds: string[];
  data: Uint8Array;
}

/**
 * Bytes per stored part. Each part crosses the SQL boundary alone: PGlite's WASM heap grows to hold a
 * statement's values and never shrinks, and a 59 MB snapshot (100k passages) in one value kept ~400 MB.
 * One part holds PGlite's thread for ~20-40 ms here; 4 MiB parts held it for ~120 ms each.
 */
const partBytes = 2 ** 20;

// Parts cross the SQL boundary as base64 text: PGlite turned a 1.6 MB Uint8Array parameter into ~150 MB
// of memory that its WASM heap then kept; the same bytes as base64 cost ~15 MB.
export function createSnapshotStore(db: SqlClient) {
  return {
    async load(assistantId: string): Promise<IndexSnapshot | null> {
      const [row] = await db.query<{ document_ids: unknown; parts: number; bytes: number }>(
        `select document_ids, count(p.part)::int as parts, coalesce(sum(octet_length(p.data)), 0)::int as bytes
         from index_snapshots s left join index_snapshot_parts p using (assistant_id)
         where s.assistant_id = $1 group by s.document_ids`,
        [assistantId],
      );
      if (!row) return null;
      const data = new Uint8Array(row.bytes);
      let offset = 0;
      for (let part = 0; part < row.parts; part++) {
        const [stored] = await db.query<{ data: string }>(
          "select encode(data, 'base64') as data from index_snapshot_parts where assistant_id = $1 and part = $2",
          [assistantId, part],
        );
        const bytes = Buffer.from(stored?.data ?? "", "base64");
        data.set(bytes, offset);
        offset += bytes.length;
        await turnOfEventLoop();
      }
      if (offset !== row.bytes) throw new Error(`index snapshot of ${assistantId} changed while it was read`);
      return { documentIds: json<string[]>(row.document_ids), data };
    },
    /** Saves the snapshot; false, saving nothing, when the assistant no longer exists (deleted meanwhile). */
    async save(assistantId: string, snapshot: IndexSnapshot): Promise<boolean> {
      return db.transaction(async (transaction) => {
        const saved = await transaction.query<{ assistant_id: string }>(
          `insert into index_snapshots (assistant_id, document_ids)
           select id, $2::jsonb from assistants where id = $1
           on conflict (assistant_id) do update set document_ids = excluded.document_ids, created_at = now()
           returning assistant_id`,
          [assistantId, JSON.stringify(snapshot.documentIds)],
        );
        if (saved.length === 0) return false;
        await transaction.query("delete from index_snapshot_parts where assistant_id = $1", [assistantId]);
        // A large index takes seconds to write: requests that do not need the database (a search whose
        // passages are cached) are served between its parts; the others wait for the commit.
        await turnOfEventLoop();
        for (let part = 0; part * partBytes < snapshot.data.length; part++) {
          const bytes = snapshot.data.subarray(part * partBytes, (part + 1) * partBytes);
          await transaction.query(
            "insert into index_snapshot_parts (assistant_id, part, data) values ($1, $2, decode($3, 'base64'))",
            [
              assistantId,
              part,
              Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64"),
            ],
          );
          await turnOfEventLoop();
        }
        return true;
      });
    },
  };
}

export type SnapshotStore = ReturnType<typeof createSnapshotStore>;
