/** Index snapshots kept with the data, so a restart loads the index instead of re-reading documents. */
import { json } from "./rows.ts";
import type { SqlQueryable } from "./sql-client.ts";

export interface IndexSnapshot {
  documentIds: string[];
  data: Uint8Array;
}

export function createSnapshotStore(db: SqlQueryable) {
  return {
    async load(assistantId: string): Promise<IndexSnapshot | null> {
      const [row] = await db.query<{ document_ids: unknown; data: Uint8Array }>(
        "select document_ids, data from index_snapshots where assistant_id = $1",
        [assistantId],
      );
      return row ? { documentIds: json<string[]>(row.document_ids), data: new Uint8Array(row.data) } : null;
    },
    async save(assistantId: string, snapshot: IndexSnapshot): Promise<void> {
      await db.query(
        `insert into index_snapshots (assistant_id, document_ids, data) values ($1, $2::jsonb, $3)
         on conflict (assistant_id) do update set document_ids = excluded.document_ids, data = excluded.data,
           created_at = now()`,
        [assistantId, JSON.stringify(snapshot.documentIds), snapshot.data],
      );
    },
  };
}

export type SnapshotStore = ReturnType<typeof createSnapshotStore>;
