/** Assistants and their datasources. */
import { randomId } from "../ids.ts";
import type { ChangeSignal } from "./change-signal.ts";
import type { SqlQueryable } from "./sql-client.ts";

interface AssistantRow {
  id: string;
  name: string;
  created_at: Date;
}

export interface StoredAssistant {
  id: string;
  name: string;
  createdAt: Date;
}

/** A datasource as its assistant lists it. */
export interface DatasourceSummary {
  id: string;
  name: string;
  /** Documents in it, whatever their state. */
  documentCount: number;
}

export interface Datasource {
  id: string;
  assistantId: string;
  name: string;
  url: string | null;
}

const toAssistant = (row: AssistantRow): StoredAssistant => ({
  id: row.id,
  name: row.name,
  createdAt: row.created_at,
});

/** `documentChanges` hears of a removal, which removes the assistant's documents with it. */
export function createAssistantStore(db: SqlQueryable, documentChanges: ChangeSignal) {
  return {
    async create(name: string): Promise<StoredAssistant> {
      const [row] = await db.query<AssistantRow>(
        "insert into assistants (id, name) values ($1, $2) returning id, name, created_at",
        [randomId("asst"), name],
      );
      return toAssistant(row!);
    },
    async list(): Promise<StoredAssistant[]> {
      const rows = await db.query<AssistantRow>(
        "select id, name, created_at from assistants order by created_order",
      );
      return rows.map(toAssistant);
    },
    async get(id: string): Promise<StoredAssistant | null> {
      const [row] = await db.query<AssistantRow>(
        "select id, name, created_at from assistants where id = $1",
        [id],
      );
      return row ? toAssistant(row) : null;
    },
    /** The renamed assistant, or null when there is none with this id. */
    async rename(id: string, name: string): Promise<StoredAssistant | null> {
      const [row] = await db.query<AssistantRow>(
        "update assistants set name = $2 where id = $1 returning id, name, created_at",
        [id, name],
      );
      return row ? toAssistant(row) : null;
    },
    async remove(id: string): Promise<boolean> {
      const rows = await db.query<{ id: string }>("delete from assistants where id = $1 returning id", [id]);
      if (rows.length > 0) documentChanges.notify();
      return rows.length > 0;
    },
    /** The assistant's datasources in the order they were made, each with its number of documents. */
    async datasources(assistantId: string): Promise<DatasourceSummary[]> {
      const rows = await db.query<{ id: string; name: string; documents: string | number }>(
        `select s.id, s.name, count(d.id) as documents
         from datasources s left join documents d on d.datasource_id = s.id
         where s.assistant_id = $1
         group by s.id order by s.created_order`,
        [assistantId],
      );
      return rows.map((row) => ({ id: row.id, name: row.name, documentCount: Number(row.documents) }));
    },
    /** The datasource named or identified by `nameOrId`, created on first use when given by name. */
    async datasource(assistantId: string, nameOrId: string): Promise<Datasource> {
      const [existing] = await db.query<{ id: string; name: string; url: string | null }>(
        "select id, name, url from datasources where assistant_id = $1 and (id = $2 or name = $2)",
        [assistantId, nameOrId],
      );
      if (existing) return { id: existing.id, assistantId, name: existing.name, url: existing.url };
      const url = /^https?:\/\//i.test(nameOrId) ? nameOrId : null;
      const [created] = await db.query<{ id: string }>(
        `insert into datasources (id, assistant_id, name, url) values ($1, $2, $3, $4)
         on conflict (assistant_id, name) do update set name = excluded.name returning id`,
        [randomId("ds"), assistantId, nameOrId, url],
      );
      return { id: created!.id, assistantId, name: nameOrId, url };
    },
  };
}

export type AssistantStore = ReturnType<typeof createAssistantStore>;
