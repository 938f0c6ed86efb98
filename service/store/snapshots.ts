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
const partsPerDelete = 8;
const foreignKeyViolation = "23503";

// Parts cross the SQL boundary as base64 text: PGlite turned a 1.6 MB Uint8Array parameter into ~150 MB
// of memory that its WASM heap then kept; the same bytes as base64 cost ~15 MB.
//
// A save writes its parts as a new generation, each part in its own statement and outside any transaction,
// then makes that generation current in a short transaction and deletes the older ones' parts after it:
// PGlite runs one statement at a time and a transaction holds it to the end, so a save in one transaction
// kept every request that needs the database waiting for seconds at 100k passages. Generations come from a
// sequence, so of two processes saving at once the later generation wins whichever flips first. A save that
// fails removes its parts; those of a save cut off by a crash go with the next save, whose generation is larger.
export function createSnapshotStore(db: SqlClient) {
  async function readOnce(assistantId: string): Promise<IndexSnapshot | null | "changed"> {
    const [row] = await db.query<{ document_ids: unknown; generation: string; parts: number; bytes: number }>(
      `select s.document_ids, s.generation::text as generation, count(p.part)::int as parts,
         coalesce(sum(octet_length(p.data)), 0)::int as bytes
       from index_snapshots s left join index_snapshot_parts p
         on p.assistant_id = s.assistant_id and p.generation = s.generation
       where s.assistant_id = $1 group by s.document_ids, s.generation`,
      [assistantId],
    );
    if (!row) return null;
    const data = new Uint8Array(row.bytes);
    let offset = 0;
    for (let part = 0; part < row.parts; part++) {
      const [stored] = await db.query<{ data: string }>(
        `select encode(data, 'base64') as data from index_snapshot_parts
         where assistant_id = $1 and generation = $2 and part = $3`,
        [assistantId, row.generation, part],
      );
      // A newer generation was made current and this one's parts deleted meanwhile.
      if (stored === undefined) return "changed";
      const bytes = Buffer.from(stored.data, "base64");
      if (offset + bytes.length > data.length) return "changed";
      data.set(bytes, offset);
      offset += bytes.length;
      await turnOfEventLoop();
    }
    if (offset !== row.bytes) return "changed";
    return { documentIds: json<string[]>(row.document_ids), data };
  }

  /** Writes the parts of `generation`, then makes it current unless a later one already is. */
  async function writeAndFlip(
    assistantId: string,
    generation: string,
    snapshot: IndexSnapshot,
  ): Promise<"current" | "superseded" | "deleted"> {
    for (let part = 0; part * partBytes < snapshot.data.length; part++) {
      const bytes = snapshot.data.subarray(part * partBytes, (part + 1) * partBytes);
      try {
        await db.query(
          `insert into index_snapshot_parts (assistant_id, generation, part, data)
           select id, $2, $3, decode($4, 'base64') from assistants where id = $1`,
          [
            assistantId,
            generation,
            part,
            Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64"),
          ],
        );
      } catch (error) {
        // PostgreSQL: the assistant was deleted between the select and the insert's key check.
        if ((error as { code?: unknown }).code === foreignKeyViolation) return "deleted";
        throw error;
      }
      await turnOfEventLoop();
    }
    return db.transaction(async (transaction) => {
      const [assistant] = await transaction.query<{ id: string }>(
        "select id from assistants where id = $1 for share",
        [assistantId],
      );
      if (!assistant) return "deleted";
      const made = await transaction.query<{ assistant_id: string }>(
        `insert into index_snapshots (assistant_id, document_ids, generation) values ($1, $2::jsonb, $3)
         on conflict (assistant_id) do update
           set document_ids = excluded.document_ids, generation = excluded.generation, created_at = now()
           where index_snapshots.generation < excluded.generation
         returning assistant_id`,
        [assistantId, JSON.stringify(snapshot.documentIds), generation],
      );
      return made.length > 0 ? "current" : "superseded";
    });
  }

  /**
   * Deletes the assistant's parts that `which` selects, a few per statement (59 MB at once held the thread
   * for ~200 ms). Another process may be deleting an overlapping set: two statements that lock rows as they
   * meet them deadlocked, so each skips the rows another holds, and the loop ends only when none is left.
   */
  async function deleteParts(assistantId: string, which: string, generation: string): Promise<void> {
    for (;;) {
      const deleted = await db.query<{ part: number }>(
        `delete from index_snapshot_parts where (assistant_id, generation, part) in (
           select assistant_id, generation, part from index_snapshot_parts
           where assistant_id = $1 and ${which} limit ${partsPerDelete} for update skip locked)
         returning part`,
        [assistantId, generation],
      );
      if (deleted.length === 0) {
        const [left] = await db.query<{ left: boolean }>(
          `select exists (select 1 from index_snapshot_parts where assistant_id = $1 and ${which}) as left`,
          [assistantId, generation],
        );
        if (!left?.left) return;
        // The rows left are another process's to delete; its statement ends within milliseconds.
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await turnOfEventLoop();
    }
  }

  return {
    async load(assistantId: string): Promise<IndexSnapshot | null> {
      // Another process may make a new snapshot current while this one is read: read the new one.
      for (let attempt = 1; ; attempt++) {
        const snapshot = await readOnce(assistantId);
        if (snapshot !== "changed") return snapshot;
        if (attempt === 3)
          throw new Error(`index snapshot of ${assistantId} changed while it was read, 3 times`);
      }
    },
    /** Saves the snapshot; false, saving nothing, when the assistant no longer exists (deleted meanwhile). */
    async save(assistantId: string, snapshot: IndexSnapshot): Promise<boolean> {
      const [next] = await db.query<{ generation: string }>(
        "select nextval('index_snapshot_generation')::text as generation",
      );
      if (next === undefined) throw new Error("the snapshot generation sequence gave no value");
      const { generation } = next;
      let current: "current" | "superseded" | "deleted";
      try {
        current = await writeAndFlip(assistantId, generation, snapshot);
      } catch (error) {
        // The parts written so far go now rather than with a next save, which may never come.
        await deleteParts(assistantId, "generation = $2", generation).catch((cleanup: unknown) => {
          throw new AggregateError(
            [error, cleanup],
            "index snapshot save failed, and so did removing its parts",
          );
        });
        throw error;
      }
      if (current === "deleted") return false;
      // When a save of a later generation was made current first, this one's parts go, not the older ones'.
      await deleteParts(
        assistantId,
        current === "current" ? "generation < $2" : "generation = $2",
        generation,
      );
      return true;
    },
  };
}

export type SnapshotStore = ReturnType<typeof createSnapshotStore>;
