import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StoredPassage } from "../domain.ts";
import { durableId } from "../ids.ts";
import { storeEngines } from "../testing/store-engines.ts";
import type { Store } from "./store.ts";

function passage(
  assistantId: string,
  datasourceId: string,
  documentId: string,
  ordinal: number,
  text: string,
): StoredPassage {
  return {
    id: durableId("psg", documentId, ordinal),
    documentId,
    assistantId,
    datasourceId,
    ordinal,
    kind: "pdf_highlight",
    text,
    heading: "Chapter 1",
    title: "Manual",
    sentences: [
      {
        text,
        start: 0,
        end: text.length,
        spans: [{ page_index: 0, rects: [[1, 2, 3, 4]], page_width: 612, page_height: 792 }],
      },
    ],
    evidence: { kind: "pdf_highlight" },
    pageStart: 0,
    pageEnd: 0,
  };
}

describe.each(storeEngines)("store on $name", ({ open }) => {
  let store: Store;
  let stop: () => void;
  beforeAll(async () => {
    ({ store, stop } = await open());
  });
  afterAll(async () => {
    await store?.close();
    stop?.();
  });

  async function assistantWithDatasource() {
    const assistant = await store.assistants.create("Support");
    const datasource = await store.assistants.datasource(assistant.id, "default");
    return { assistant, datasource };
  }

  it("creates, lists, renames and deletes assistants", async () => {
    const created = await store.assistants.create("Docs bot");
    expect(created.id).toMatch(/^asst_/);
    expect((await store.assistants.list()).map((assistant) => assistant.id)).toContain(created.id);
    expect(await store.assistants.rename(created.id, "Help bot")).toEqual({ ...created, name: "Help bot" });
    expect((await store.assistants.get(created.id))?.name).toBe("Help bot");
    expect(await store.assistants.rename("asst_doesnotexist", "Nobody")).toBeNull();
    expect(await store.assistants.remove(created.id)).toBe(true);
    expect(await store.assistants.get(created.id)).toBeNull();
    expect(await store.assistants.remove(created.id)).toBe(false);
  });

  it("finds a datasource by name or id and creates it once", async () => {
    const { assistant, datasource } = await assistantWithDatasource();
    expect((await store.assistants.datasource(assistant.id, "default")).id).toBe(datasource.id);
    expect((await store.assistants.datasource(assistant.id, datasource.id)).id).toBe(datasource.id);
  });

  it("lists an assistant's datasources in the order they were made, with their document counts", async () => {
    const { assistant, datasource } = await assistantWithDatasource();
    const manuals = await store.assistants.datasource(assistant.id, "manuals");
    for (const sha256 of ["m1", "m2"]) {
      await store.documents.add({
        assistantId: assistant.id,
        datasourceId: manuals.id,
        fileName: `${sha256}.pdf`,
        sha256,
        bytes: 1,
      });
    }
    expect(await store.assistants.datasources(assistant.id)).toEqual([
      { id: datasource.id, name: "default", documentCount: 0 },
      { id: manuals.id, name: "manuals", documentCount: 2 },
    ]);
    expect(await store.assistants.datasources("asst_doesnotexist")).toEqual([]);
  });

  it("lists assistants, datasources, documents and keys in the order they were made, even within one millisecond", async () => {
    const names = Array.from({ length: 12 }, (_, index) => `made ${index}`);
    const assistants: Array<{ id: string }> = [];
    for (const name of names) assistants.push(await store.assistants.create(name));
    const listed = (await store.assistants.list()).map((assistant) => assistant.id);
    expect(listed.filter((id) => assistants.some((assistant) => assistant.id === id))).toEqual(
      assistants.map((assistant) => assistant.id),
    );
    const [assistant] = assistants;
    const datasources: Array<{ id: string }> = [];
    for (const name of names) datasources.push(await store.assistants.datasource(assistant!.id, name));
    expect((await store.assistants.datasources(assistant!.id)).map((datasource) => datasource.id)).toEqual(
      datasources.map((datasource) => datasource.id),
    );
    const documents: string[] = [];
    for (const name of names) {
      const added = await store.documents.add({
        assistantId: assistant!.id,
        datasourceId: datasources[0]!.id,
        fileName: `${name}.pdf`,
        sha256: name,
        bytes: 1,
      });
      documents.push(added.document.id);
    }
    expect((await store.documents.list(assistant!.id)).map((document) => document.id)).toEqual(documents);
    const keys: string[] = [];
    for (const name of names) keys.push((await store.keys.create(assistant!.id, ["rag"], name)).id);
    expect((await store.keys.list(assistant!.id)).map((key) => key.id)).toEqual(keys);
  });

  it("keeps one document for the same bytes uploaded twice into a datasource", async () => {
    const { assistant, datasource } = await assistantWithDatasource();
    const input = {
      assistantId: assistant.id,
      datasourceId: datasource.id,
      fileName: "a.pdf",
      sha256: "ab",
      bytes: 10,
    };
    const first = await store.documents.add(input);
    const second = await store.documents.add({ ...input, fileName: "copy.pdf" });
    expect(first.duplicate).toBe(false);
    expect(second.duplicate).toBe(true);
    expect(second.document.id).toBe(first.document.id);
    expect(await store.documents.list(assistant.id)).toHaveLength(1);
  });

  it("stores an unusable upload as failed with its reason", async () => {
    const { assistant, datasource } = await assistantWithDatasource();
    const { document } = await store.documents.add({
      assistantId: assistant.id,
      datasourceId: datasource.id,
      fileName: "empty.pdf",
      sha256: "e3b0",
      bytes: 0,
      failure: "The file is empty.",
    });
    expect(document).toMatchObject({ status: "failed", error: "The file is empty." });
  });

  it("hands each queued document to one worker, and passages appear only once committed", async () => {
    const { assistant, datasource } = await assistantWithDatasource();
    const add = (sha256: string) =>
      store.documents.add({
        assistantId: assistant.id,
        datasourceId: datasource.id,
        fileName: `${sha256}.pdf`,
        sha256,
        bytes: 1,
      });
    const { document: one } = await add("c1");
    const { document: two } = await add("c2");
    const claimed = new Set<string>();
    for (let attempt = 0; attempt < 50 && claimed.size < 2; attempt += 1) {
      const next = await store.documents.claimNext();
      if (!next) break;
      if (next.id === one.id || next.id === two.id) claimed.add(next.id);
      else await store.documents.fail(next.id, "not this test's document");
    }
    expect(claimed).toEqual(new Set([one.id, two.id]));
    expect((await store.documents.get(one.id))?.status).toBe("processing");

    const passages = [
      passage(assistant.id, datasource.id, one.id, 0, "Use aptitude purge to remove configuration files."),
    ];
    expect(await store.passages.ofDocuments([one.id])).toHaveLength(0);
    expect(
      await store.passages.commitDocument(one.id, passages, { title: "Manual", pages: 3, warnings: [] }),
    ).toBe(true);
    const ready = await store.documents.get(one.id);
    expect(ready).toMatchObject({ status: "ready", passages: 1, pages: 3, title: "Manual" });
    const [stored] = await store.passages.byIds(assistant.id, [passages[0]!.id]);
    expect(stored?.sentences[0]?.spans?.[0]?.rects).toEqual([[1, 2, 3, 4]]);
    expect(stored?.fileName).toBe("c1.pdf");
    expect(await store.documents.readyDocumentIds(assistant.id)).toEqual([one.id]);

    await store.documents.fail(two.id, "The PDF is damaged.");
    expect(await store.passages.commitDocument(two.id, [], { title: null, pages: null, warnings: [] })).toBe(
      false,
    );
    expect((await store.documents.get(two.id))?.status).toBe("failed");
  });

  it("requeues documents that were being processed when the owner crashed", async () => {
    const { assistant, datasource } = await assistantWithDatasource();
    const { document } = await store.documents.add({
      assistantId: assistant.id,
      datasourceId: datasource.id,
      fileName: "crash.pdf",
      sha256: "d1",
      bytes: 1,
    });
    let claimed = await store.documents.claimNext();
    while (claimed && claimed.id !== document.id) claimed = await store.documents.claimNext();
    expect(claimed?.status).toBe("processing");
    expect(await store.documents.requeueInterrupted()).toBeGreaterThanOrEqual(1);
    expect((await store.documents.get(document.id))?.status).toBe("queued");
  });

  it("verifies a key only while it exists, matches and is not revoked", async () => {
    const { assistant } = await assistantWithDatasource();
    const created = await store.keys.create(assistant.id, ["ask"], "web");
    expect(created.key).toMatch(/^cka_live_/);
    expect(await store.keys.verify(created.key)).toEqual({
      id: created.id,
      assistantId: assistant.id,
      scopes: ["ask"],
    });
    expect(await store.keys.verify(`${created.key.slice(0, -1)}x`)).toBeNull();
    expect(await store.keys.verify("not-a-key")).toBeNull();
    const listed = await store.keys.list(assistant.id);
    expect(JSON.stringify(listed)).not.toContain(created.key.slice(-20));
    await store.keys.revoke(created.id);
    expect(await store.keys.verify(created.key)).toBeNull();
    expect((await store.keys.list(assistant.id))[0]?.revokedAt).not.toBeNull();
  });

  it("records when a key was used, writing it at most once a minute", async () => {
    const { assistant } = await assistantWithDatasource();
    const used = await store.keys.create(assistant.id, ["rag"], "used");
    const unused = await store.keys.create(assistant.id, ["rag"], "unused");
    const lastUsed = async (id: string) =>
      (await store.keys.list(assistant.id)).find((key) => key.id === id)?.lastUsedAt;
    expect(await lastUsed(used.id)).toBeNull();

    await store.keys.recordUse(used.id);
    const first = await lastUsed(used.id);
    expect(Date.now() - (first?.getTime() ?? 0)).toBeLessThan(60_000);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await store.keys.recordUse(used.id);
    expect(await lastUsed(used.id)).toEqual(first);
    expect(await lastUsed(unused.id)).toBeNull();
  });

  it("binds a session to its first user and keeps its turns in order", async () => {
    const { assistant } = await assistantWithDatasource();
    const session = crypto.randomUUID();
    expect(await store.sessions.owner(assistant.id, session, "alice")).toBe("alice");
    expect(await store.sessions.owner(assistant.id, session, "mallory")).toBe("alice");
    for (const question of ["first", "second"]) {
      await store.sessions.appendTurn(assistant.id, session, {
        id: `msg_${question}00000000`,
        question,
        searchQuery: question,
        answer: `answer to ${question}`,
        refusal: false,
        passageIds: ["psg_a"],
      });
    }
    const turns = await store.sessions.recentTurns(assistant.id, session, 5);
    expect(turns.map((turn) => turn.question)).toEqual(["first", "second"]);
  });

  it("renews a PDF token at most once", async () => {
    const token = `tok_${crypto.randomUUID()}`;
    expect(await store.sessions.markRefreshed(token)).toBe(true);
    expect(await store.sessions.markRefreshed(token)).toBe(false);
  });

  it("saves and loads index snapshots", async () => {
    const { assistant } = await assistantWithDatasource();
    expect(await store.snapshots.load(assistant.id)).toBeNull();
    await store.snapshots.save(assistant.id, { documentIds: ["doc_a"], data: new Uint8Array([1, 2, 3]) });
    // Long enough for Postgres's base64 to break lines, every byte value present.
    const data = Uint8Array.from({ length: 5000 }, (_, index) => (index * 7919) % 256);
    await store.snapshots.save(assistant.id, { documentIds: ["doc_a", "doc_b"], data });
    const loaded = await store.snapshots.load(assistant.id);
    expect(loaded?.documentIds).toEqual(["doc_a", "doc_b"]);
    expect(loaded?.data).toEqual(data);
  });
});
