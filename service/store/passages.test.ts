import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PdfSpan } from "../../sdk/core/wire.ts";
import type { StoredPassage } from "../domain.ts";
import { temporaryPgliteDir } from "../testing/pglite-template.ts";
import { servedBefore } from "../testing/served-before.ts";
import { migrate } from "./migrate.ts";
import { openPglite, type SqlClient } from "./sql-client.ts";
import { createStore, openStore, type Store } from "./store.ts";

describe("stored sentence positions", () => {
  let client: SqlClient;
  let store: Store;
  beforeAll(async () => {
    client = await openPglite(temporaryPgliteDir("cka-passages-"));
    await migrate(client);
    store = createStore(client);
  });
  afterAll(async () => {
    await client.close();
  });

  const spans: PdfSpan[] = [
    { page_index: 4, rects: [[72, 90.5, 300, 101]], page_width: 612, page_height: 792 },
    {
      page_index: 5,
      rects: [
        [72, 60, 540, 71.25],
        [72, 73, 180.5, 84.25],
      ],
      page_width: 595.28,
      page_height: 841.89,
    },
  ];

  async function committed(
    sha256: string,
    passage: Pick<StoredPassage, "id" | "text" | "sentences">,
  ): Promise<StoredPassage> {
    const assistant = await store.assistants.create("Manual");
    const datasource = await store.assistants.datasource(assistant.id, "default");
    const { document } = await store.documents.add({
      assistantId: assistant.id,
      datasourceId: datasource.id,
      fileName: "manual.pdf",
      sha256,
      bytes: 1,
    });
    await store.documents.claimNext();
    const stored: StoredPassage = {
      ...passage,
      ordinal: 0,
      kind: "pdf_highlight",
      heading: "Upgrading",
      title: "Manual",
      evidence: { kind: "pdf_highlight" },
      pageStart: 4,
      pageEnd: 5,
      assistantId: assistant.id,
      datasourceId: datasource.id,
      documentId: document.id,
    };
    await store.passages.commitDocument(document.id, [stored], { title: "Manual", pages: 6, warnings: [] });
    return stored;
  }

  it("keeps each sentence's offsets and rects compactly, not a second copy of its text", async () => {
    const passage = await committed("e1", {
      id: "psg_positions",
      text: "Back up first. Then run the upgrade. Done.",
      sentences: [
        { text: "Back up first.", start: 0, end: 14, spans: spans.slice(0, 1) },
        { text: "Then run the upgrade.", start: 15, end: 36, spans },
        { text: "Done.", start: 37, end: 42 },
      ],
    });

    const [row] = await client.query<{ sentences: string }>(
      "select sentences::text from passages where id = $1",
      [passage.id],
    );
    expect(JSON.parse(row?.sentences ?? "null")).toEqual([
      [0, 14, [4, 612, 792, 72, 90.5, 300, 101]],
      [
        15,
        36,
        [4, 612, 792, 72, 90.5, 300, 101],
        [5, 595.28, 841.89, 72, 60, 540, 71.25, 72, 73, 180.5, 84.25],
      ],
      [37, 42],
    ]);
    // A fresh store has nothing cached: the sentences come back from the row, their text from the passage's.
    const [read] = await createStore(client).passages.byIds(passage.assistantId, [passage.id]);
    expect(read?.sentences).toEqual(passage.sentences);
  });

  it("keeps a span's printed page label after its rects, where a row without one is read as before", async () => {
    const labelled = spans.map((span, index) => ({ ...span, page_label: ["iv", "v"][index]! }));
    const passage = await committed("e-labels", {
      id: "psg_labels",
      text: "Back up first. Then run the upgrade.",
      sentences: [
        { text: "Back up first.", start: 0, end: 14, spans: labelled.slice(0, 1) },
        { text: "Then run the upgrade.", start: 15, end: 36, spans: labelled },
      ],
    });
    const [row] = await client.query<{ sentences: string }>(
      "select sentences::text from passages where id = $1",
      [passage.id],
    );
    expect(JSON.parse(row?.sentences ?? "null")[0]).toEqual([0, 14, [4, 612, 792, 72, 90.5, 300, 101, "iv"]]);
    const [read] = await createStore(client).passages.byIds(passage.assistantId, [passage.id]);
    expect(read?.sentences).toEqual(passage.sentences);
  });

  it("reads rows written in the earlier form, with keys, and with or without each sentence's text", async () => {
    const passage = await committed("e2", {
      id: "psg_earlier_form",
      text: "Back up first. Then run the upgrade.",
      sentences: [
        { text: "Back up first.", start: 0, end: 14, spans },
        { text: "Then run the upgrade.", start: 15, end: 36, spans },
      ],
    });
    const earlier = [
      { start: 0, end: 14, spans, text: "Back up first." },
      { start: 15, end: 36, spans },
    ];
    await client.query("update passages set sentences = $2::json where id = $1", [
      passage.id,
      JSON.stringify(earlier),
    ]);
    const [read] = await createStore(client).passages.byIds(passage.assistantId, [passage.id]);
    expect(read?.sentences).toEqual(passage.sentences);
  });
});

/** A document claimed for reading, and `count` small passages of it to commit. */
async function claimedDocument(
  store: Store,
  assistantId: string,
  datasourceId: string,
  index: number,
  count: number,
) {
  const { document } = await store.documents.add({
    assistantId,
    datasourceId,
    fileName: `part-${index}.pdf`,
    sha256: `large-${index}`,
    bytes: 1,
  });
  await store.documents.claimNext();
  const passages = Array.from(
    { length: count },
    (_, ordinal): StoredPassage => ({
      id: `psg_${index}_${ordinal}`,
      documentId: document.id,
      assistantId,
      datasourceId,
      ordinal,
      kind: "pdf_highlight",
      text: `Passage ${ordinal} of part ${index}.`,
      heading: "Part",
      title: "Large",
      sentences: [{ text: `Passage ${ordinal} of part ${index}.`, start: 0, end: 20 }],
      evidence: { kind: "pdf_highlight" },
      pageStart: null,
      pageEnd: null,
    }),
  );
  return { document, passages };
}

describe("a large document's passages", () => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore({ pgliteDir: temporaryPgliteDir("cka-passages-large-") });
  });
  afterAll(async () => {
    await store.close();
  });

  it("are stored letting requests be served between batches instead of holding the thread until the commit", async () => {
    const assistant = await store.assistants.create("Large");
    const datasource = await store.assistants.datasource(assistant.id, "default");
    const { document, passages } = await claimedDocument(store, assistant.id, datasource.id, 0, 1_200);
    const commit = store.passages.commitDocument(document.id, passages, {
      title: "Large",
      pages: 1,
      warnings: [],
    });
    expect(await servedBefore(commit)).toBe(true);
    expect(await commit).toBe(true);
  });

  it("are read back for the index once each, in order, in bounded batches without positions", async () => {
    const assistant = await store.assistants.create("Large");
    const datasource = await store.assistants.datasource(assistant.id, "default");
    const documentIds: string[] = [];
    for (const [index, count] of [1500, 1200].entries()) {
      const { document, passages } = await claimedDocument(
        store,
        assistant.id,
        datasource.id,
        index + 1,
        count,
      );
      await store.passages.commitDocument(document.id, passages, { title: null, pages: 1, warnings: [] });
      documentIds.push(document.id);
    }
    const batches = [];
    for await (const batch of store.passages.forIndex(documentIds)) batches.push(batch);
    expect(batches.map((batch) => batch.length)).toEqual([2000, 700]);
    const read = batches.flat();
    const expected = [...documentIds].sort();
    expect([...new Set(read.map((passage) => passage.documentId))]).toEqual(expected);
    expect(new Set(read.map((passage) => passage.id)).size).toBe(2700);
    expect(read[0]).toEqual({
      id: expect.stringMatching(/^psg_\d_0$/),
      documentId: expected[0],
      datasourceId: datasource.id,
      text: expect.stringMatching(/^Passage 0 of part \d\.$/),
      title: "Large",
      heading: "Part",
      ordinal: 0,
    });
  });
});
