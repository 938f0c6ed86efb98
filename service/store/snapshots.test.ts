import { afterAll, beforeAll, expect, it } from "vitest";
import { temporaryPgliteDir } from "../testing/pglite-template.ts";
import { servedBefore } from "../testing/served-before.ts";
import { openStore, type Store } from "./store.ts";

let store: Store;
beforeAll(async () => {
  store = await openStore({ pgliteDir: temporaryPgliteDir("cka-snapshots-") });
});
afterAll(async () => {
  await store.close();
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
