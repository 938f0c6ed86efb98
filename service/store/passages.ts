/** Passages with their sentence positions; a document's passages are committed all at once or not at all. */
import type { ReferenceKind } from "../../sdk/core/wire.ts";
import type { PassageEvidence, PassageWithSource, StoredPassage } from "../domain.ts";
import { turnOfEventLoop } from "../event-loop.ts";
import type { ChangeSignal } from "./change-signal.ts";
import { json } from "./rows.ts";
import { decodeSentences, encodeSentences } from "./sentence-positions.ts";
import type { SqlClient, SqlQueryable } from "./sql-client.ts";

interface PassageRow {
  id: string;
  document_id: string;
  assistant_id: string;
  datasource_id: string;
  ordinal: number;
  kind: ReferenceKind;
  text: string;
  heading: string;
  title: string;
  sentences: unknown;
  evidence: unknown;
  page_start: number | null;
  page_end: number | null;
  file_name: string;
}

const toPassage = (row: PassageRow): PassageWithSource => ({
  id: row.id,
  documentId: row.document_id,
  assistantId: row.assistant_id,
  datasourceId: row.datasource_id,
  ordinal: row.ordinal,
  kind: row.kind,
  text: row.text,
  heading: row.heading,
  title: row.title,
  sentences: decodeSentences(row.text, json<unknown[]>(row.sentences)),
  evidence: json<PassageEvidence>(row.evidence),
  pageStart: row.page_start,
  pageEnd: row.page_end,
  fileName: row.file_name,
});

export interface DocumentOutcome {
  title: string | null;
  pages: number | null;
  warnings: string[];
}

/**
 * Rows sent to the database in one JSON parameter. Embedded Postgres's WASM memory grows to hold a
 * batch and never shrinks: 500 rows keep it at its start size, 2000 grew it by ~50 MB. A batch holds the
 * thread (requests wait): 200 rows take 25-90 ms here, 500 took up to 190 ms, for the same CPU in all.
 */
const batchSize = 200;

/** Passages never change once committed, so recently read ones are kept to spare the database a round trip. */
const cachedPassages = 20_000;

/**
 * Rows read per query when the index is rebuilt from stored passages. PGlite's WASM memory grows to
 * hold a whole result and never shrinks: all 100k passages of an assistant in one result kept ~600 MB.
 */
const indexBatchSize = 2000;

/** What the index reads of a passage: no positions or evidence. */
export interface IndexSourcePassage {
  id: string;
  documentId: string;
  ordinal: number;
  datasourceId: string;
  text: string;
  title: string;
  heading: string;
}

/** `documentChanges` hears of each document a commit made ready. */
export function createPassageStore(db: SqlClient, documentChanges: ChangeSignal) {
  const cache = new Map<string, PassageWithSource>();
  const remember = (passage: PassageWithSource) => {
    cache.delete(passage.id);
    cache.set(passage.id, passage);
    if (cache.size > cachedPassages) cache.delete(cache.keys().next().value as string);
  };
  return {
    /** Replaces the document's passages and marks it ready, in one transaction. */
    async commitDocument(
      documentId: string,
      passages: readonly StoredPassage[],
      outcome: DocumentOutcome,
    ): Promise<boolean> {
      const committed = await db.transaction(async (transaction) => {
        const [claimed] = await transaction.query<{ id: string }>(
          "select id from documents where id = $1 and status = 'processing' for update",
          [documentId],
        );
        if (!claimed) return false;
        await transaction.query("delete from passages where document_id = $1", [documentId]);
        for (let start = 0; start < passages.length; start += batchSize) {
          await insertBatch(transaction, passages.slice(start, start + batchSize));
          await turnOfEventLoop();
        }
        await transaction.query(
          `update documents set status = 'ready', error = null, passages = $2, title = $3, pages = $4,
             pages_done = $4, warnings = $5::jsonb, lease_until = null, updated_at = now() where id = $1`,
          [documentId, passages.length, outcome.title, outcome.pages, JSON.stringify(outcome.warnings)],
        );
        return true;
      });
      if (committed) documentChanges.notify();
      return committed;
    },
    async byIds(assistantId: string, ids: readonly string[]): Promise<PassageWithSource[]> {
      const byId = new Map<string, PassageWithSource>();
      for (const id of ids) {
        const cached = cache.get(id);
        if (cached?.assistantId === assistantId) byId.set(id, cached);
      }
      const missing = ids.filter((id) => !byId.has(id));
      if (missing.length > 0) {
        const rows = await db.query<PassageRow>(
          `select p.*, d.file_name from passages p join documents d on d.id = p.document_id
           where p.assistant_id = $1 and p.id = any($2::text[]) and d.status = 'ready'`,
          [assistantId, missing],
        );
        for (const row of rows) {
          const passage = toPassage(row);
          remember(passage);
          byId.set(passage.id, passage);
        }
      }
      return ids.flatMap((id) => byId.get(id) ?? []);
    },
    /** A deleted document's passages must not be served from memory. */
    forgetDocument(documentId: string): void {
      for (const [id, passage] of cache) if (passage.documentId === documentId) cache.delete(id);
    },
    async ofDocuments(documentIds: readonly string[]): Promise<PassageWithSource[]> {
      if (documentIds.length === 0) return [];
      const rows = await db.query<PassageRow>(
        `select p.*, d.file_name from passages p join documents d on d.id = p.document_id
         where p.document_id = any($1::text[]) order by p.document_id, p.ordinal`,
        [documentIds],
      );
      return rows.map(toPassage);
    },
    /** The documents' passages as the index needs them, a batch at a time, in document and ordinal order. */
    async *forIndex(documentIds: readonly string[]): AsyncGenerator<IndexSourcePassage[]> {
      let after = { documentId: "", ordinal: -1 };
      for (;;) {
        const rows = await db.query<IndexSourcePassage>(
          `select id, document_id as "documentId", datasource_id as "datasourceId", text, title, heading, ordinal
           from passages where document_id = any($1::text[]) and (document_id, ordinal) > ($2, $3)
           order by document_id, ordinal limit ${indexBatchSize}`,
          [documentIds, after.documentId, after.ordinal],
        );
        if (rows.length === 0) return;
        const last = rows.at(-1) as IndexSourcePassage;
        after = { documentId: last.documentId, ordinal: last.ordinal };
        yield rows;
        if (rows.length < indexBatchSize) return;
      }
    },
  };
}

async function insertBatch(transaction: SqlQueryable, passages: readonly StoredPassage[]): Promise<void> {
  const rows = passages.map((passage) => ({
    id: passage.id,
    document_id: passage.documentId,
    assistant_id: passage.assistantId,
    datasource_id: passage.datasourceId,
    ordinal: passage.ordinal,
    kind: passage.kind,
    text: passage.text,
    heading: passage.heading,
    title: passage.title,
    sentences: encodeSentences(passage.sentences),
    evidence: passage.evidence,
    page_start: passage.pageStart,
    page_end: passage.pageEnd,
  }));
  await transaction.query(
    `insert into passages (id, document_id, assistant_id, datasource_id, ordinal, kind, text, heading, title,
       sentences, evidence, page_start, page_end)
     select id, document_id, assistant_id, datasource_id, ordinal, kind, text, heading, title,
       sentences, evidence, page_start, page_end
     from json_to_recordset($1::json) as r(id text, document_id text, assistant_id text, datasource_id text,
       ordinal integer, kind text, text text, heading text, title text, sentences json, evidence json,
       page_start integer, page_end integer)`,
    [JSON.stringify(rows)],
  );
}

export type PassageStore = ReturnType<typeof createPassageStore>;
