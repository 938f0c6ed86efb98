import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { temporaryPgliteDir } from "../testing/pglite-template.ts";
import { migrate } from "./migrate.ts";
import { openPglite, type SqlClient } from "./sql-client.ts";
import { createStore } from "./store.ts";

describe("schema migrations on an existing data folder", () => {
  let client: SqlClient;
  beforeAll(async () => {
    client = await openPglite(temporaryPgliteDir("cka-migrate-"));
    await migrate(client);
  });
  afterAll(async () => {
    await client.close();
  });

  it("keeps the sentence positions of passages stored before they became json", async () => {
    // The data folder as 001 left it: jsonb positions, 002 not applied.
    await client.execute(`
      alter table passages alter column sentences type jsonb, alter column evidence type jsonb;
      delete from schema_migrations where name = '002_passage_positions_json.sql';
      insert into assistants (id, name) values ('asst_1', 'Manual');
      insert into datasources (id, assistant_id, name) values ('ds_1', 'asst_1', 'default');
      insert into documents (id, assistant_id, datasource_id, file_name, sha256, bytes, status)
        values ('doc_1', 'asst_1', 'ds_1', 'manual.pdf', 'abc', 10, 'ready');
      insert into passages (id, document_id, assistant_id, datasource_id, ordinal, kind, text, heading, title,
          sentences, evidence, page_start, page_end)
        values ('psg_1', 'doc_1', 'asst_1', 'ds_1', 0, 'pdf_highlight', 'Hello.', 'Intro', 'Manual',
          '[{"text":"Hello.","start":0,"end":6,"spans":[{"page_index":2,"rects":[[1.5,2,3,4]],"page_width":612,"page_height":792}]}]',
          '{"kind":"pdf_highlight"}', 2, 2);
    `);
    expect(await migrate(client)).toEqual(["002_passage_positions_json.sql"]);
    const [passage] = await createStore(client).passages.byIds("asst_1", ["psg_1"]);
    expect(passage?.sentences).toEqual([
      {
        text: "Hello.",
        start: 0,
        end: 6,
        spans: [{ page_index: 2, rects: [[1.5, 2, 3, 4]], page_width: 612, page_height: 792 }],
      },
    ]);
    expect(passage?.evidence).toEqual({ kind: "pdf_highlight" });
  });

  it("lists keys made before keys recorded their last use as never used, and records their next use", async () => {
    // The data folder as 002 left it: no last_used_at, 003 not applied.
    await client.execute(`
      alter table api_keys drop column last_used_at;
      delete from schema_migrations where name = '003_key_last_used.sql';
      insert into assistants (id, name) values ('asst_2', 'Keys');
      insert into api_keys (id, assistant_id, name, scopes, prefix, hash)
        values ('key_1', 'asst_2', 'web', '{rag}', 'cka_live_abcdef', 'hash-1');
    `);
    expect(await migrate(client)).toEqual(["003_key_last_used.sql"]);
    const keys = createStore(client).keys;
    expect((await keys.list("asst_2"))[0]).toMatchObject({ id: "key_1", lastUsedAt: null });
    await keys.recordUse("key_1");
    expect((await keys.list("asst_2"))[0]?.lastUsedAt).toEqual(expect.any(Date));
  });

  it("loads an index snapshot saved before snapshots had generations, then replaces it", async () => {
    // The data folder as 007 left it: parts keyed by assistant and part, 008 not applied.
    await client.execute(`
      alter table index_snapshot_parts drop constraint index_snapshot_parts_pkey;
      alter table index_snapshot_parts drop constraint index_snapshot_parts_assistant_id_fkey;
      alter table index_snapshot_parts drop column generation;
      alter table index_snapshots drop column generation;
      alter table index_snapshot_parts add primary key (assistant_id, part);
      alter table index_snapshot_parts
        add foreign key (assistant_id) references index_snapshots (assistant_id) on delete cascade;
      drop sequence index_snapshot_generation;
      delete from schema_migrations where name = '008_index_snapshot_generations.sql';
      insert into assistants (id, name) values ('asst_3', 'Index');
      insert into index_snapshots (assistant_id, document_ids) values ('asst_3', '["doc_9"]');
      insert into index_snapshot_parts (assistant_id, part, data) values ('asst_3', 0, '\\x010203'), ('asst_3', 1, '\\x04');
    `);
    expect(await migrate(client)).toEqual(["008_index_snapshot_generations.sql"]);
    const snapshots = createStore(client).snapshots;
    const loaded = await snapshots.load("asst_3");
    expect(loaded?.documentIds).toEqual(["doc_9"]);
    expect([...(loaded?.data ?? [])]).toEqual([1, 2, 3, 4]);
    expect(
      await snapshots.save("asst_3", { documentIds: ["doc_9", "doc_10"], data: new Uint8Array([5, 6]) }),
    ).toBe(true);
    const replaced = await snapshots.load("asst_3");
    expect(replaced?.documentIds).toEqual(["doc_9", "doc_10"]);
    expect([...(replaced?.data ?? [])]).toEqual([5, 6]);
    const [parts] = await client.query<{ count: number }>(
      "select count(*)::int as count from index_snapshot_parts",
    );
    expect(parts?.count).toBe(1);
  });

  it("lists assistants made before rows were numbered in their created_at order, and new ones after them", async () => {
    // The data folder as 009 left it: no created_order, 010 not applied; two assistants made in one tick.
    await client.execute(`
      alter table assistants drop column created_order;
      alter table datasources drop column created_order;
      alter table documents drop column created_order;
      alter table api_keys drop column created_order;
      delete from schema_migrations where name = '010_creation_order.sql';
      delete from assistants;
      insert into assistants (id, name, created_at) values
        ('asst_b', 'Second', '2026-01-01T00:00:01Z'), ('asst_z', 'First, same tick', '2026-01-01T00:00:00Z'),
        ('asst_a', 'First', '2026-01-01T00:00:00Z');
    `);
    expect(await migrate(client)).toEqual(["010_creation_order.sql"]);
    const assistants = createStore(client).assistants;
    const made = await assistants.create("Made after");
    expect((await assistants.list()).map((assistant) => assistant.id)).toEqual([
      "asst_a",
      "asst_z",
      "asst_b",
      made.id,
    ]);
  });
});
