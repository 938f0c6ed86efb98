import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeEngines } from "../testing/store-engines.ts";
import type { Store } from "./store.ts";

describe.each(storeEngines)("document queue on $name", ({ open }) => {
  let store: Store;
  let stop: () => void;
  beforeAll(async () => {
    ({ store, stop } = await open());
  });
  afterAll(async () => {
    await store?.close();
    stop?.();
  });

  /** A fresh assistant per test, so that each test's queue holds only its own documents. */
  async function queueOf(...names: string[]) {
    const assistant = await store.assistants.create("Queue");
    const datasource = await store.assistants.datasource(assistant.id, "default");
    const input = (name: string) => ({
      assistantId: assistant.id,
      datasourceId: datasource.id,
      fileName: `${name}.pdf`,
      sha256: `${assistant.id}-${name}`,
      bytes: 1,
    });
    const documents = [];
    for (const name of names) documents.push((await store.documents.add(input(name))).document);
    return { assistant, documents, input };
  }

  /** Earlier tests' documents, still queued or being read, are set aside. */
  async function drainQueue() {
    await store.documents.requeueInterrupted();
    for (
      let claimed = await store.documents.claimNext();
      claimed;
      claimed = await store.documents.claimNext()
    ) {
      await store.documents.fail(claimed.id, "left over");
    }
  }

  it("gives the PDF endpoint a ready document's bytes and pages, and nothing once it or its assistant is gone", async () => {
    await drainQueue();
    const ready = async (name: string) => {
      const { assistant, documents } = await queueOf(name);
      const document = documents[0]!;
      expect(await store.documents.sliceable(document.id)).toBeNull();
      expect((await store.documents.claimNext())?.id).toBe(document.id);
      await store.passages.commitDocument(document.id, [], { title: name, pages: 12, warnings: [] });
      return { assistant, document };
    };
    const kept = await ready("kept");
    const expected = { sha256: kept.document.sha256, pages: 12 };
    expect(await store.documents.sliceable(kept.document.id)).toEqual(expected);
    // Asked twice: the second answer may come from memory, and must still be right after each removal.
    expect(await store.documents.sliceable(kept.document.id)).toEqual(expected);
    expect(await store.documents.remove(kept.assistant.id, kept.document.id)).toBe(true);
    expect(await store.documents.sliceable(kept.document.id)).toBeNull();

    const owned = await ready("owned");
    expect(await store.documents.sliceable(owned.document.id)).not.toBeNull();
    expect(await store.assistants.remove(owned.assistant.id)).toBe(true);
    expect(await store.documents.sliceable(owned.document.id)).toBeNull();
  });

  it("tries a failed document again when the same bytes are uploaded again", async () => {
    await drainQueue();
    const { documents, input } = await queueOf("retry");
    const first = documents[0]!;
    expect((await store.documents.claimNext())?.id).toBe(first.id);
    await store.documents.fail(first.id, "The PDF extraction worker stopped unexpectedly (exit code 1).");

    const again = await store.documents.add(input("retry"));
    expect(again.document).toMatchObject({ id: first.id, status: "queued" });
    expect(again.document.error).toBeNull();
    expect((await store.documents.claimNext())?.id).toBe(first.id);
  });

  it("shows no pages read when a document is picked up again after an interruption", async () => {
    await drainQueue();
    const { documents } = await queueOf("progress");
    const document = documents[0]!;
    await store.documents.claimNext();
    await store.documents.progress(document.id, 40, 120);
    await store.documents.requeueInterrupted();
    const claimed = await store.documents.claimNext();
    expect(claimed).toMatchObject({ id: document.id, status: "processing", pagesDone: 0 });
  });

  it("hands a document cut off by a crash only to a worker reading nothing else, oldest first", async () => {
    await drainQueue();
    const { documents } = await queueOf("a", "b", "c");
    const [a, b, c] = documents as [(typeof documents)[0], (typeof documents)[0], (typeof documents)[0]];
    expect((await store.documents.claimNext())?.id).toBe(a.id);
    expect((await store.documents.claimNext({ othersInFlight: true }))?.id).toBe(b.id);
    await store.documents.requeueInterrupted();

    // a and b were cut off, c was not: a is read first, alone; nothing joins it while it is read.
    expect(await store.documents.claimNext({ othersInFlight: true })).toBeNull();
    const alone = await store.documents.claimNext();
    expect(alone).toMatchObject({ id: a.id, readAlone: true, loneCrashes: 0 });
    expect(await store.documents.claimNext({ othersInFlight: true })).toBeNull();

    // The process dies again while reading only a: that counts against a, and nothing against b.
    await store.documents.requeueInterrupted();
    expect(await store.documents.claimNext()).toMatchObject({ id: a.id, loneCrashes: 1 });
    await store.documents.fail(a.id, "done with a");
    expect(await store.documents.claimNext()).toMatchObject({ id: b.id, readAlone: true, loneCrashes: 0 });
    await store.documents.fail(b.id, "done with b");
    expect(await store.documents.claimNext({ othersInFlight: true })).toMatchObject({
      id: c.id,
      readAlone: false,
    });
  });
});
