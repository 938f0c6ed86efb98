/** Index snapshots kept with the data, so a restart loads the index instead of re-reading documents. */
import { json } from "./rows.ts";
import type { SqlQueryable } from "./sql-client.ts";

export interface IndexSnapshot {
  documentIds: string[];
  data: Uint8Array;
}

// Snapshots cross the SQL boundary as base64 text: PGlite turned a 1.6 MB Uint8Array parameter into ~150 MB
// of memory that its WASM heap then kept; the same bytes as base64 cost ~15 MB.
/**
 * A snapshot is read in slices: a 59 MB snapshot (100k passages) read whole grew PGlite's WASM heap,
 * which never shrinks, by ~450 MB.
 */
const loadChunkBytes = 4 * 2 ** 20;

export function createSnapshotStore(db: SqlQueryable) {
  return {
    async load(assistantId: string): Promise<IndexSnapshot | null> {
      const [row] = await db.query<{ document_ids: unknown; bytes: number }>(
        "select document_ids, octet_length(data) as bytes from index_snapshots where assistant_id = $1",
        [assistantId],
      );
      if (!row) return null;
      const data = new Uint8Array(row.bytes);
      for (let offset = 0; offset < row.bytes; offset += loadChunkBytes) {
        const [chunk] = await db.query<{ part: string }>(
          "select encode(substring(data from $2 for $3), 'base64') as part from index_snapshots where assistant_id = $1",
          [assistantId, offset + 1, loadChunkBytes],
        );
        data.set(Buffer.from(chunk?.part ?? "", "base64"), offset);
      }
      return { documentIds: json<string[]>(row.document_ids), data };
    },
    async save(assistantId: string, snapshot: IndexSnapshot): Promise<void> {
      await db.query(
        `insert into index_snapshots (assistant_id, document_ids, data) values ($1, $2::jsonb, decode($3, 'base64'))
         on conflict (assistant_id) do update set document_ids = excluded.document_ids, data = excluded.data,
           created_at = now()`,
        [assistantId, JSON.stringify(snapshot.documentIds), Buffer.from(snapshot.data).toString("base64")],
      );
    },
  };
}

export type SnapshotStore = ReturnType<typeof createSnapshotStore>;
