import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EmbeddedModel, loadEmbeddedModel } from "../embedding/embedded-model.ts";
import { testModelFolder } from "../embedding/testing/model.ts";
import { analyze } from "../index/analyzer.ts";
import { type Bm25Index, createBm25Index } from "../index/bm25-index.ts";
import { createDenseIndex, type DenseIndex } from "../index/dense-index.ts";
import type { IndexedPassage } from "../index/types.ts";
import { quantize } from "../index/vector-codec.ts";
import { topicTerms } from "./question-terms.ts";
import { retrieve, type SemanticSearch } from "./retrieve.ts";

const compression: IndexedPassage = {
  id: "psg_compression",
  datasourceId: "dts_manuals",
  documentId: "doc_archiver",
  title: "Archiver manual",
  heading: "Compression",
  text: "Enable compression of archives with the --gzip flag; the files written then take far less disk space.",
};

/** The other passages: one shares a word with the question, none is about size. */
const others: IndexedPassage[] = [
  {
    id: "psg_schedule",
    datasourceId: "dts_manuals",
    documentId: "doc_archiver",
    title: "Archiver manual",
    heading: "Scheduling",
    text: "Run the backup every night from cron so that no day of work is lost.",
  },
  {
    id: "psg_release",
    datasourceId: "dts_manuals",
    documentId: "doc_release",
    title: "Release checklist",
    heading: "Tagging",
    text: "Tag the commit with the version number and push the tag to the server.",
  },
  {
    id: "psg_printer",
    datasourceId: "dts_notes",
    documentId: "doc_office",
    title: "Office notes",
    heading: "Printing",
    text: "The printer queue lists every job waiting to be printed, oldest first.",
  },
  {
    id: "psg_passwords",
    datasourceId: "dts_notes",
    documentId: "doc_office",
    title: "Office notes",
    heading: "Accounts",
    text: "Passwords must be at least twelve characters long and are changed once a year.",
  },
  {
    id: "psg_coffee",
    datasourceId: "dts_notes",
    documentId: "doc_office",
    title: "Office notes",
    heading: "Kitchen",
    text: "The coffee machine is descaled on the first Monday of every month.",
  },
];

const question = "make the backup smaller";

function query(text: string) {
  return { text, terms: topicTerms(text) };
}

describe("retrieval by meaning", () => {
  let model: EmbeddedModel;
  let lexical: Bm25Index;
  let dense: DenseIndex;
  let semantic: SemanticSearch;

  beforeAll(async () => {
    model = await loadEmbeddedModel(testModelFolder());
    const passages = [compression, ...others];
    lexical = createBm25Index();
    lexical.add(passages);
    dense = await denseOf(passages);
    semantic = { dense, embedder: model };
  });
  afterAll(() => model?.close());

  /** The passages' vectors as the semantic indexer stores them: int8, in a vector index. */
  async function denseOf(passages: readonly IndexedPassage[]): Promise<DenseIndex> {
    const vectors = await model.embed(passages.map((passage) => passage.text));
    const index = createDenseIndex();
    index.add(
      passages.map((passage, position) => ({
        id: passage.id,
        documentId: passage.documentId,
        datasourceId: passage.datasourceId,
        vector: quantize(vectors[position]!),
      })),
    );
    return index;
  }

  it("shares no word with the passage it should find", () => {
    const passageWords = new Set(analyze(`${compression.title} ${compression.heading} ${compression.text}`));
    expect(analyze(question).filter((word) => passageWords.has(word))).toEqual([]);
  });

  it("does not find the passage by words alone", async () => {
    const { hits, vector } = await retrieve(lexical, null, query(question), { limit: 6 });
    expect(hits.map((hit) => hit.id)).not.toContain(compression.id);
    expect(hits.map((hit) => hit.id)).toEqual(["psg_schedule"]);
    expect(hits[0]?.cosine).toBeNull();
    expect(vector).toBeNull();
  });

  it("finds it with the model, right after the passage found both by words and by meaning", async () => {
    const { hits, vector } = await retrieve(lexical, semantic, query(question), { limit: 2 });
    expect(hits.map((hit) => hit.id)).toEqual(["psg_schedule", compression.id]);
    expect(hits[1]?.lexical).toBe(0);
    expect(vector).toHaveLength(model.dimensions);
    // Not by luck of a close call: its cosine with the question is far above that of any passage on
    // another subject (0.45 against at most 0.13 when written), and those are not found by meaning at all.
    const all = await retrieve(lexical, semantic, query(question), { limit: 10 });
    expect(all.hits.map((hit) => hit.id)).toEqual(["psg_schedule", compression.id]);
    const [compressionVector] = await model.embed([compression.text]);
    const [questionVector] = await model.embed([question]);
    for (const other of others.filter((passage) => passage.id !== "psg_schedule")) {
      const [otherVector] = await model.embed([other.text]);
      const cosine = (vector: Float32Array) =>
        vector.reduce((sum, value, index) => sum + value * questionVector![index]!, 0);
      expect(cosine(compressionVector!) - cosine(otherVector!), other.id).toBeGreaterThan(0.2);
    }
  });

  it("falls back to words while the assistant has no vectors yet", async () => {
    const empty: SemanticSearch = { dense: createDenseIndex(), embedder: model };
    const { hits, vector } = await retrieve(lexical, empty, query(question), { limit: 6 });
    expect(hits.map((hit) => hit.id)).toEqual(["psg_schedule"]);
    expect(vector).toBeNull();
  });

  it("answers by words while some passages have no vectors yet, rather than favour those that have", async () => {
    const partial = await denseOf(others);
    const { hits, vector } = await retrieve(lexical, { dense: partial, embedder: model }, query(question), {
      limit: 6,
    });
    expect(hits.map((hit) => hit.id)).toEqual(["psg_schedule"]);
    expect(vector).toBeNull();
  });

  it("keeps to the datasources asked for, by meaning as by words", async () => {
    // "How short may a login secret be?" shares no word with the passwords passage; the manuals hold none.
    const secret = query("How short may a login secret be?");
    const notes = await retrieve(lexical, semantic, secret, { limit: 6, datasourceIds: ["dts_notes"] });
    expect(notes.hits.map((hit) => hit.id)).toEqual(["psg_passwords"]);
    const manuals = await retrieve(lexical, semantic, secret, { limit: 6, datasourceIds: ["dts_manuals"] });
    expect(manuals.hits.map((hit) => hit.id)).not.toContain("psg_passwords");
    const none = await retrieve(lexical, semantic, query(question), { limit: 6, datasourceIds: [] });
    expect(none.hits).toEqual([]);
  });
});
