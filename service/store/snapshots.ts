/** Index snapshots kept with the data, so a restart loads the index instead of re-reading documents. */
import { json } from "./rows.ts";
import type { SqlQueryable } from "./sql-client.ts";

export interface IndexSnapshot {
  documentIds: string[];
  data: Uint8Array;
}

// Snapshots cross the SQL boundary as base64 text: PGlite turned a 1.6 MB Uint8Array parameter into ~150 MB
// of memory that its WASM heap then kept; the same bytes as base64 cost ~15 MB.
export function createSnapshotStore(db: SqlQueryable) {
  return {
    async load(assistantId: string): Promise<IndexSnapshot | null> {
      const [row] = await db.query<{ document_ids: unknown; data: string }>(
        "select document_ids, encode(data, 'base64') as data from index_snapshots where assistant_id = $1",
        [assistantId],
      );
      return row
        ? {
            documentIds: json<string[]>(row.document_ids),
            data: new Uint8Array(Buffer.from(row.data, "base64")),
          }
        : null;
    },
    /** Saves the snapshot; false, saving nothing, when the assistant no longer exists (deleted meanwhile). */
    async save(assistantId: string, snapshot: IndexSnapshot): Promise<boolean> {
      const rows = await db.query<{ assistant_id: string }>(
        `insert into index_snapshots (assistant_id, document_ids, data)
         select id, $2::jsonb, decode($3, 'base64') from assistants where id = $1
         on conflict (assistant_id) do update set document_ids = excluded.document_ids, data = excluded.data,
           created_at = now()
         returning assistant_id`,
        [assistantId, JSON.stringify(snapshot.documentIds), Buffer.from(snapshot.data).toString("base64")],
      );
      return rows.length > 0;
    },
  };
}

export type SnapshotStore = ReturnType<typeof createSnapshotStore>;
