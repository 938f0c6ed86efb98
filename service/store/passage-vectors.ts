/** Embedding vectors of passages and their sentences, per model; written in batches, so a crash loses at most one. */
import type { ChangeSignal } from "./change-signal.ts";
import type { SqlClient } from "./sql-client.ts";

export interface PassageVectors {
  passageId: string;
  documentId: string;
  assistantId: string;
  /** The passage's vector then one per sentence, as `vector-codec.ts` encodes them. */
  vectors: Uint8Array;
}

export interface IndexedVectors {
  passageId: string;
  documentId: string;
  datasourceId: string;
  vectors: Uint8Array;
}

interface IndexedVectorsRow {
  passage_id: string;
  document_id: string;
  datasource_id: string;
  vectors: string;
}

const indexedColumns = "v.passage_id, v.document_id, p.datasource_id, encode(v.vectors, 'base64') as vectors";

const toIndexedVectors = (row: IndexedVectorsRow): IndexedVectors => ({
  passageId: row.passage_id,
  documentId: row.document_id,
  datasourceId: row.datasource_id,
  vectors: Buffer.from(row.vectors, "base64"),
});

/** Rows per read when an assistant's vectors are loaded, to keep PGlite's WASM heap small (see passages.ts). */
const loadBatchSize = 2000;

// Vectors cross the SQL boundary as base64 text, as snapshot parts do: PGlite keeps the memory of large
// binary parameters.
export function createPassageVectorStore(db: SqlClient, documentChanges: ChangeSignal) {
  return {
    /**
     * A ready document with passages that have no vectors of `model`, oldest first, other than those of
     * `skipped` (documents whose embedding failed a moment ago); null when there is none.
     */
    async nextDocument(
      model: string,
      skipped: readonly string[] = [],
    ): Promise<{ id: string; assistantId: string } | null> {
      const [row] = await db.query<{ id: string; assistant_id: string }>(
        `select d.id, d.assistant_id from documents d
         where d.status = 'ready' and d.id <> all($2::text[]) and exists (
           select 1 from passages p where p.document_id = d.id and not exists (
             select 1 from passage_vectors v where v.passage_id = p.id and v.model = $1))
         order by d.updated_at, d.id limit 1`,
        [model, skipped],
      );
      return row ? { id: row.id, assistantId: row.assistant_id } : null;
    },
    /** Ids of the document's passages without vectors of `model`, in reading order. */
    async missing(documentId: string, model: string): Promise<string[]> {
      const rows = await db.query<{ id: string }>(
        `select p.id from passages p where p.document_id = $1 and not exists (
           select 1 from passage_vectors v where v.passage_id = p.id and v.model = $2) order by p.ordinal`,
        [documentId, model],
      );
      return rows.map((row) => row.id);
    },
    /** Stores vectors (replacing those of another model) and updates the document's count, in one transaction. */
    async write(model: string, documentId: string, rows: readonly PassageVectors[]): Promise<number> {
      const embedded = await db.transaction(async (transaction) => {
        await transaction.query(
          `insert into passage_vectors (passage_id, document_id, assistant_id, model, vectors)
           select r.passage_id, r.document_id, r.assistant_id, $2, decode(r.vectors, 'base64')
           from json_to_recordset($1::json) as r(passage_id text, document_id text, assistant_id text, vectors text)
           where exists (select 1 from passages p where p.id = r.passage_id)
           on conflict (passage_id) do update set model = excluded.model, vectors = excluded.vectors`,
          [
            JSON.stringify(
              rows.map((row) => ({
                passage_id: row.passageId,
                document_id: row.documentId,
                assistant_id: row.assistantId,
                vectors: Buffer.from(row.vectors).toString("base64"),
              })),
            ),
            model,
          ],
        );
        const [count] = await transaction.query<{ embedded: number }>(
          `update documents set passages_embedded = (
             select count(*)::int from passage_vectors where document_id = $1 and model = $2)
           where id = $1 returning passages_embedded as embedded`,
          [documentId, model],
        );
        return count?.embedded ?? 0;
      });
      documentChanges.notify();
      return embedded;
    },
    /** The vectors of `model` of an assistant's ready documents, a batch at a time. */
    async *forAssistant(assistantId: string, model: string): AsyncGenerator<IndexedVectors[]> {
      let after = "";
      for (;;) {
        const rows = await db.query<IndexedVectorsRow>(
          `select ${indexedColumns}
           from passage_vectors v join passages p on p.id = v.passage_id join documents d on d.id = v.document_id
           where v.assistant_id = $1 and v.model = $2 and d.status = 'ready' and v.passage_id > $3
           order by v.passage_id limit ${loadBatchSize}`,
          [assistantId, model, after],
        );
        if (rows.length === 0) return;
        after = rows.at(-1)?.passage_id ?? after;
        yield rows.map(toIndexedVectors);
        if (rows.length < loadBatchSize) return;
      }
    },
    /** A document's vectors of `model`, as the vector index reads them. */
    async ofDocument(documentId: string, model: string): Promise<IndexedVectors[]> {
      const rows = await db.query<IndexedVectorsRow>(
        `select ${indexedColumns} from passage_vectors v join passages p on p.id = v.passage_id
         where v.document_id = $1 and v.model = $2`,
        [documentId, model],
      );
      return rows.map(toIndexedVectors);
    },
    /** The stored vectors of these passages under `model`; passages without any are absent from the map. */
    async ofPassages(passageIds: readonly string[], model: string): Promise<Map<string, Uint8Array>> {
      if (passageIds.length === 0) return new Map();
      const rows = await db.query<{ passage_id: string; vectors: string }>(
        `select passage_id, encode(vectors, 'base64') as vectors from passage_vectors
         where passage_id = any($1::text[]) and model = $2`,
        [passageIds, model],
      );
      return new Map(rows.map((row) => [row.passage_id, Buffer.from(row.vectors, "base64")]));
    },
  };
}

export type PassageVectorStore = ReturnType<typeof createPassageVectorStore>;
