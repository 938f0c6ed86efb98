import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { temporaryPgliteDir } from "../testing/pglite-template.ts";
import { postgresAvailable, startPostgres, type TestPostgres } from "../testing/postgres.ts";
import { servedBefore } from "../testing/served-before.ts";
import { migrate } from "./migrate.ts";
import { openPglite, openPostgres, type SqlClient } from "./sql-client.ts";
import { createStore, type Store } from "./store.ts";

let client: SqlClient;
let store: Store;
beforeAll(async () => {
  client = await openPglite(temporaryPgliteDir("cka-snapshots-"));
  await migrate(client);
  store = createStore(client);
});
afterAll(async () => {
  await client.close();
});

it("gives back a snapshot larger than one read slice byte for byte", async () => {
  const assistant = await store.assistants.create("Large index");
  const data = new Uint8Array(9 * 2 ** 20 + 12_345);
  for (let index = 0; index < data.length; index++) data[index] = (index * 2_654_435_761) >>> 24;
  await store.snapshots.save(assistant.id, { documentIds: ["doc_a"], data });
  const loaded = await store.snapshots.load(assistant.id);
  expect(loaded?.documentIds).toEqual(["doc_a"]);
  expect(loaded?.data.length).toBe(data.length);
  expect(Buffer.compare(Buffer.from(loaded?.data ?? []), Buffer.from(data))).toBe(0);
});

it("lets requests be served while a large snapshot is written and read, between its parts", async () => {
  const assistant = await store.assistants.create("Index written in parts");
  const data = new Uint8Array(3 * 2 ** 20);
  const saving = store.snapshots.save(assistant.id, { documentIds: ["doc_a"], data });
  expect(await servedBefore(saving)).toBe(true);
  await saving;
  const loading = store.snapshots.load(assistant.id);
  expect(await servedBefore(loading)).toBe(true);
  expect((await loading)?.data.length).toBe(data.length);
});

const bytesOf = (length: number, seed: number): Uint8Array => {
  const data = new Uint8Array(length);
  for (let index = 0; index < length; index++) data[index] = ((index + seed) * 2_654_435_761) >>> 24;
  return data;
};

const partRows = async (assistantId: string): Promise<number> => {
  const [row] = await client.query<{ parts: number }>(
    "select count(*)::int as parts from index_snapshot_parts where assistant_id = $1",
    [assistantId],
  );
  return row?.parts ?? -1;
};

it("holds the database only while it makes the new snapshot current, not while its parts are written", async () => {
  const assistant = await store.assistants.create("Requests during a save");
  await store.snapshots.save(assistant.id, { documentIds: ["doc_old"], data: bytesOf(3 * 2 ** 20, 1) });
  let saved = false;
  const saving = store.snapshots.save(assistant.id, {
    documentIds: ["doc_new"],
    data: bytesOf(12 * 2 ** 20, 2),
  });
  void saving.then(() => {
    saved = true;
  });
  // Requests that need the database, one after another, while the save goes on.
  let answeredDuringSave = 0;
  while (!saved) {
    const found = await store.assistants.get(assistant.id);
    expect(found?.id).toBe(assistant.id);
    if (!saved) answeredDuringSave++;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  expect(await saving).toBe(true);
  expect(answeredDuringSave).toBeGreaterThanOrEqual(3);
  const loaded = await store.snapshots.load(assistant.id);
  expect(loaded?.documentIds).toEqual(["doc_new"]);
  expect(Buffer.compare(Buffer.from(loaded?.data ?? []), Buffer.from(bytesOf(12 * 2 ** 20, 2)))).toBe(0);
  // The previous snapshot's parts are gone.
  expect(await partRows(assistant.id)).toBe(12);
});

it("keeps one whole snapshot when two saves overlap, and no parts of the other", async () => {
  const assistant = await store.assistants.create("Overlapping saves");
  const first = { documentIds: ["doc_1"], data: bytesOf(4 * 2 ** 20 + 5, 3) };
  const second = { documentIds: ["doc_1", "doc_2"], data: bytesOf(2 * 2 ** 20 + 7, 4) };
  expect(
    await Promise.all([
      store.snapshots.save(assistant.id, first),
      store.snapshots.save(assistant.id, second),
    ]),
  ).toEqual([true, true]);
  const loaded = await store.snapshots.load(assistant.id);
  // The second save took the later generation: it is the one kept, whichever finished first.
  expect(loaded?.documentIds).toEqual(second.documentIds);
  expect(Buffer.compare(Buffer.from(loaded?.data ?? []), Buffer.from(second.data))).toBe(0);
  expect(await partRows(assistant.id)).toBe(3);
});

it("saves nothing for an assistant deleted while its snapshot is written", async () => {
  const assistant = await store.assistants.create("Deleted during a save");
  const saving = store.snapshots.save(assistant.id, { documentIds: [], data: bytesOf(8 * 2 ** 20, 5) });
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(await store.assistants.remove(assistant.id)).toBe(true);
  expect(await saving).toBe(false);
  expect(await partRows(assistant.id)).toBe(0);
  expect(await store.snapshots.load(assistant.id)).toBeNull();
});

describe.skipIf(!postgresAvailable)(
  "snapshots of one assistant saved by several processes on PostgreSQL",
  () => {
    let postgres: TestPostgres;
    const clients: SqlClient[] = [];
    beforeAll(async () => {
      postgres = await startPostgres();
      for (let process = 0; process < 3; process++) {
        const opened = await openPostgres(postgres.url);
        await migrate(opened);
        clients.push(opened);
      }
    }, 60_000);
    afterAll(async () => {
      for (const opened of clients) await opened.close();
      postgres?.stop();
    });

    it("keep the latest generation's whole snapshot and no parts of the others", async () => {
      const [one, two] = clients.map((opened) => createStore(opened)) as [Store, Store];
      const db = clients[0] as SqlClient;
      const assistant = await one.assistants.create("Shared");
      const saves = Array.from({ length: 6 }, (_, index) => ({
        documentIds: [`doc_${index}`],
        data: bytesOf((2 + (index % 3)) * 2 ** 20 + index, 10 + index),
      }));
      // Overlapping, from both clients; a client's queries may queue behind its own earlier saves' parts, so
      // the generations need not follow the order the saves started in.
      const saved: Promise<boolean>[] = [];
      for (const [index, snapshot] of saves.entries()) {
        saved.push((index % 2 === 0 ? one : two).snapshots.save(assistant.id, snapshot));
        await new Promise((resolve) => setTimeout(resolve, 15));
      }
      expect(await Promise.all(saved)).toEqual(saves.map(() => true));
      // No other test on this server takes generations: the current one is the last the sequence gave.
      const [generations] = await db.query<{ current: string; last: string }>(
        `select s.generation::text as current, q.last_value::text as last
       from index_snapshots s, index_snapshot_generation q where s.assistant_id = $1`,
        [assistant.id],
      );
      expect(generations?.current).toBe(generations?.last);
      const loaded = await two.snapshots.load(assistant.id);
      const kept = saves.find((snapshot) => snapshot.documentIds[0] === loaded?.documentIds[0]);
      expect(kept).toBeDefined();
      expect(Buffer.compare(Buffer.from(loaded?.data ?? []), Buffer.from(kept?.data ?? []))).toBe(0);
      const [row] = await db.query<{ parts: number }>(
        "select count(*)::int as parts from index_snapshot_parts where assistant_id = $1",
        [assistant.id],
      );
      expect(row?.parts).toBe(Math.ceil((kept?.data.length ?? 0) / 2 ** 20));
    }, 60_000);

    it("save many times at once from three processes without a deadlock, and keep one whole snapshot", async () => {
      const stores = clients.map((opened) => createStore(opened));
      const db = clients[0] as SqlClient;
      for (let round = 0; round < 10; round++) {
        const assistant = await (stores[0] as Store).assistants.create(`Busy ${round}`);
        const saved: Promise<boolean>[] = [];
        for (let index = 0; index < 9; index++) {
          const data = bytesOf((1 + (index % 3)) * 2 ** 20 + index, index);
          saved.push(
            (stores[index % 3] as Store).snapshots.save(assistant.id, {
              documentIds: [`doc_${index}`],
              data,
            }),
          );
          await new Promise((resolve) => setTimeout(resolve, (index * 7) % 13));
        }
        expect(await Promise.all(saved)).toEqual(saved.map(() => true));
        const loaded = await (stores[1] as Store).snapshots.load(assistant.id);
        const [row] = await db.query<{ parts: number }>(
          "select count(*)::int as parts from index_snapshot_parts where assistant_id = $1",
          [assistant.id],
        );
        expect(row?.parts).toBe(Math.ceil((loaded?.data.length ?? 0) / 2 ** 20));
      }
    }, 60_000);
  },
);
