/** Word, PowerPoint, Excel, Calc and EPUB files uploaded through the admin API become passages and cited answers. */
import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AdminClient, createAdminClient } from "../../sdk/admin/index.ts";
import { reduceAnswerText } from "../../sdk/core/index.ts";
import { publicPaths } from "../../sdk/core/service-paths.ts";
import type { Reference } from "../../sdk/core/wire.ts";
import {
  docx,
  epub,
  ods,
  pptx,
  wordParagraph,
  wordTable,
  xlsx,
} from "../ingest/zip-formats/testing/build-documents.ts";
import { hostilePackages } from "../ingest/zip-formats/testing/hostile-packages.ts";
import { type InProcessService, openInProcessService } from "../testing/in-process-service.ts";
import { callPublic } from "../testing/public-api-client.ts";
import { testAdminToken, uploadFiles, waitForDocuments } from "../testing/sharing-area.ts";

const files = [
  {
    name: "handbook.docx",
    bytes: docx(
      [
        wordParagraph("Tape storage", "Heading1"),
        wordParagraph("Retention", "Heading2"),
        wordParagraph("Degausser wipes retire every cartridge after eleven years of service."),
        wordTable([
          ["Cartridge", "Shelf"],
          ["LTO-9", "North aisle"],
        ]),
      ].join(""),
    ),
  },
  {
    name: "review.pptx",
    bytes: pptx([
      { title: "Agenda", body: ["Welcome."] },
      {
        title: "Flamingo budget",
        body: ["The flamingo enclosure costs forty thousand euros."],
        notes: ["Ask finance."],
      },
    ]),
  },
  {
    name: "stock.xlsx",
    bytes: xlsx(
      [
        {
          name: "Warehouse",
          rows: [
            { r: 1, cells: '<c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c>' },
            { r: 2, cells: '<c r="A2" t="s"><v>2</v></c><c r="B2"><f>20+22</f><v>42</v></c>' },
            { r: 3, cells: '<c r="A3" t="s"><v>3</v></c><c r="B3"><v>7</v></c>' },
          ],
        },
      ],
      { sharedStrings: ["Item", "Count", "Quokka plush", "Wombat mug"] },
    ),
  },
  {
    name: "ledger.ods",
    bytes: ods(
      '<table:table table:name="Ledger"><table:table-row><table:table-cell office:value-type="string"><text:p>Account</text:p></table:table-cell><table:table-cell office:value-type="string"><text:p>Balance</text:p></table:table-cell></table:table-row><table:table-row><table:table-cell office:value-type="string"><text:p>Narwhal fund</text:p></table:table-cell><table:table-cell office:value-type="float" office:value="1234.5"><text:p>1234.50</text:p></table:table-cell></table:table-row></table:table>',
    ),
  },
  {
    name: "novel.epub",
    bytes: epub(
      [
        {
          file: "c1.xhtml",
          navTitle: "Chapter 1: Harbour",
          body: "<p>The lighthouse keeper polished the brass lantern at dusk.</p>",
        },
        {
          file: "c2.xhtml",
          navTitle: "Chapter 2: Storm",
          body: "<p>Hailstones cracked the greenhouse roof twice.</p>",
        },
      ],
      { title: "Harbour Tales" },
    ),
  },
];

describe("zipped documents through the service", () => {
  let service: InProcessService;
  let client: AdminClient;
  let assistantId: string;
  let key: string;
  const send: typeof fetch = (input, init) => service.fetch(input, init);

  beforeAll(async () => {
    service = await openInProcessService({ env: { CKA_ADMIN_TOKEN: testAdminToken, CKA_OCR: "off" } });
    client = createAdminClient({ baseUrl: service.url, adminToken: testAdminToken, fetch: send });
    assistantId = (await client.createAssistant("zipped formats")).id;
    key = (await client.createKey(assistantId, ["ask", "rag"])).key;
    expect((await uploadFiles(service.url, assistantId, files, { send })).status).toBe(202);
  });
  afterAll(async () => {
    await service?.close();
    if (service) await rm(service.dataDir, { recursive: true, force: true });
  });

  async function ask(message: string): Promise<Reference[]> {
    const response = await callPublic(
      service.url,
      { path: publicPaths.ask(assistantId, crypto.randomUUID()), key, body: { id_user: "user-1", message } },
      send,
    );
    expect(response.status).toBe(200);
    return Object.values(reduceAnswerText(await response.text()).references);
  }

  it("reads every file to ready", async () => {
    const documents = await waitForDocuments(client, assistantId);
    expect(
      documents.map((document) => [document.file_name, document.status, document.error ?? null]),
    ).toEqual(files.map((file) => [file.name, "ready", null]));
  });

  it.each([
    {
      question: "When does the degausser retire a cartridge?",
      file: "handbook.docx",
      kind: "paragraph",
      heading: "Tape storage › Retention",
      quote: "eleven years",
    },
    {
      question: "How much does the flamingo enclosure cost?",
      file: "review.pptx",
      kind: "paragraph",
      heading: "Slide 2: Flamingo budget",
      quote: "forty thousand euros",
    },
    {
      question: "How many Quokka plush are in the warehouse?",
      file: "stock.xlsx",
      kind: "table",
      heading: "Warehouse",
      quote: "Row: 2; Item: Quokka plush; Count: 42",
    },
    {
      question: "What is the balance of the Narwhal fund?",
      file: "ledger.ods",
      kind: "table",
      heading: "Ledger",
      quote: "Row: 2; Account: Narwhal fund; Balance: 1234.5",
    },
    {
      question: "What did the lighthouse keeper polish?",
      file: "novel.epub",
      kind: "paragraph",
      heading: "Chapter 1: Harbour",
      quote: "brass lantern",
    },
  ])("an answer from $file cites $heading", async ({ question, file, kind, heading, quote }) => {
    await waitForDocuments(client, assistantId);
    const references = await ask(question);
    const cited = references.find((reference) => reference.title === file);
    expect(
      cited,
      JSON.stringify(references.map((reference) => [reference.title, reference.quote])),
    ).toMatchObject({
      kind,
      metadata: expect.objectContaining({ heading }),
    });
    expect(cited?.quote).toContain(quote);
  });

  it("fails each bad file alone with its reason, and reads the good file uploaded with them", async () => {
    const assistant = (await client.createAssistant("bad zipped files")).id;
    const bad = hostilePackages();
    const good = files[0];
    if (!good) throw new Error("no good file");
    const response = await uploadFiles(service.url, assistant, [...bad, good], { send });
    expect(response.status, await response.clone().text()).toBe(202);
    const documents = await waitForDocuments(client, assistant, { timeoutMs: 120_000 });
    for (const file of bad) {
      const document = documents.find((candidate) => candidate.file_name === file.name);
      expect(document?.status, file.kind).toBe("failed");
      expect(document?.error, file.kind).toContain(file.reason);
    }
    expect(documents.find((document) => document.file_name === good.name)?.status).toBe("ready");
  }, 180_000);
});
