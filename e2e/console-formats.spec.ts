/**
 * The sources people actually have, through the console: a Word file, a slide deck, an Excel workbook, a
 * Calc sheet, an e-book and a scanned image dropped on an assistant's sources. Each answers a question only
 * it holds, in the Try tab, and its citation opens at the place it names: the heading, the slide, the
 * sheet's row, the chapter, the region of the image.
 */
import { createAdminClient } from "../sdk/admin/index.ts";
import {
  docx,
  epub,
  ods,
  pptx,
  wordParagraph,
  xlsx,
} from "../service/ingest/zip-formats/testing/build-documents.ts";
import { renderTextImage } from "../service/testing/text-image.ts";
import { ChatPage } from "./pages/chat-page.ts";
import { ConsoleSourcesPage, type SourceFile } from "./pages/console-sources-page.ts";
import { SearchPage } from "./pages/search-page.ts";
import { expect, test } from "./support/app-fixtures.ts";
import { consoleStackOptions, operatorName } from "./support/console-stack.ts";
import { screenshotsAtBothWidths } from "./support/screenshots.ts";

test.use({ appStackOptions: { ...consoleStackOptions, ocr: true } });

interface Kind {
  file: SourceFile;
  question: string;
  /** In the answer, and quoted in the evidence. */
  quote: string;
  /** Where the evidence says the quote is. */
  place: string | RegExp;
  /** Beside the quote in the source, and no part of the answer: the next row of a table. */
  neighbour?: string;
}

const file = (name: string, mimeType: string, bytes: Uint8Array): SourceFile => ({
  name,
  mimeType,
  buffer: Buffer.from(bytes),
});

async function kinds(): Promise<Kind[]> {
  const scan = await renderTextImage([
    "Facilities notes",
    "The boiler room key hangs behind the blue cabinet.",
    "Visitors sign the red book at the gate.",
  ]);
  return [
    {
      file: file(
        "handbook.docx",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        docx(
          [
            wordParagraph("Tape storage", "Heading1"),
            wordParagraph("Retention", "Heading2"),
            wordParagraph("Backup tapes stay in the Reykjavik vault for seven years."),
          ].join(""),
        ),
      ),
      question: "How long do backup tapes stay in the Reykjavik vault?",
      quote: "Backup tapes stay in the Reykjavik vault for seven years.",
      place: "Tape storage › Retention",
    },
    {
      file: file(
        "plan.pptx",
        "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        pptx([
          { title: "Spring plan", body: ["Welcome to the planning meeting."] },
          { title: "Flamingo budget", body: ["The flamingo enclosure is budgeted at forty thousand euros."] },
        ]),
      ),
      question: "What is the flamingo enclosure budgeted at?",
      quote: "The flamingo enclosure is budgeted at forty thousand euros.",
      place: "Slide 2: Flamingo budget",
    },
    {
      file: file(
        "stock.xlsx",
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        xlsx(
          [
            {
              name: "Warehouse",
              rows: [
                { r: 1, cells: '<c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c>' },
                { r: 2, cells: '<c r="A2" t="s"><v>2</v></c><c r="B2" t="s"><v>3</v></c>' },
                { r: 3, cells: '<c r="A3" t="s"><v>4</v></c><c r="B3" t="s"><v>5</v></c>' },
              ],
            },
          ],
          { sharedStrings: ["Item", "Shelf", "Anchor chains", "B7", "Signal flags", "C2"] },
        ),
      ),
      question: "On which shelf are the anchor chains?",
      quote: "Anchor chains",
      place: "Warehouse",
      neighbour: "Signal flags",
    },
    {
      file: file(
        "ledger.ods",
        "application/vnd.oasis.opendocument.spreadsheet",
        ods(
          '<table:table table:name="Ledger"><table:table-row><table:table-cell office:value-type="string"><text:p>Account</text:p></table:table-cell><table:table-cell office:value-type="string"><text:p>Balance</text:p></table:table-cell></table:table-row><table:table-row><table:table-cell office:value-type="string"><text:p>Lighthouse fund</text:p></table:table-cell><table:table-cell office:value-type="float" office:value="1250"><text:p>1250</text:p></table:table-cell></table:table-row></table:table>',
        ),
      ),
      question: "What is the balance of the lighthouse fund?",
      quote: "Lighthouse fund",
      place: "Ledger",
    },
    {
      file: file(
        "harbour.epub",
        "application/epub+zip",
        epub(
          [
            {
              file: "c1.xhtml",
              navTitle: "Chapter 1: Arrival",
              body: "<p>The ferry arrived late that winter.</p>",
            },
            {
              file: "c2.xhtml",
              navTitle: "Chapter 2: Fog",
              body: "<p>The harbour master rings the fog bell every ninety seconds in dense fog.</p>",
            },
          ],
          { title: "Harbour tales" },
        ),
      ),
      question: "How often does the harbour master ring the fog bell?",
      quote: "The harbour master rings the fog bell every ninety seconds in dense fog.",
      place: "Chapter 2: Fog",
    },
    {
      file: file("facilities-scan.png", "image/png", scan.bytes),
      question: "Where does the boiler room key hang?",
      quote: "The boiler room key hangs behind the blue cabinet.",
      place: "facilities-scan.png",
    },
  ];
}

test("an operator drops a Word file, slides, a workbook, a Calc sheet, an e-book and a scan; each answers its own question in the Try tab, its citation opens at the place it names, and search opens the scan as the image", async ({
  page,
  appStack,
  signInPage,
}) => {
  test.setTimeout(420_000);
  const admin = createAdminClient({ baseUrl: appStack.serviceUrl, adminToken: appStack.adminToken });
  // An assistant holding these files alone, so each answer can only come from its own file.
  const assistant = await admin.createAssistant("Formats e2e");
  const sourcesOf = await kinds();
  await signInPage.signIn(operatorName);
  const sources = new ConsoleSourcesPage(page);
  await sources.goto(assistant.id);
  await sources.drop(sourcesOf.map((kind) => kind.file));
  for (const kind of sourcesOf) await sources.expectState(kind.file.name, "ready", 180_000);

  await page.goto(`/console/assistants/${assistant.id}/try`);
  const chat = new ChatPage(page);
  for (const kind of sourcesOf) {
    await test.step(kind.file.name, async () => {
      await page.goto(`/console/assistants/${assistant.id}/try`);
      const answer = await chat.ask(kind.question);
      await chat.expectAnswerDone(answer);
      await expect(answer).toContainText(kind.quote);
      if (kind.neighbour) await expect(answer).not.toContainText(kind.neighbour);
      await chat.citations(answer).first().click();
      await expect(chat.evidence.root).toBeVisible();
      await expect(chat.evidence.root).toContainText(kind.file.name);
      await expect(chat.evidence.root).toContainText(kind.place);
      await expect(chat.evidence.root).toContainText(kind.quote);
      if (kind.file.mimeType.startsWith("image/")) {
        await expect(chat.evidence.root.getByTestId("cited-image-evidence")).toBeVisible();
        await expect(chat.evidence.root.getByTestId("cited-image-highlight").first()).toBeVisible();
      } else {
        // The cited sentence is marked among its neighbours; a table's cited row is marked in the table.
        await expect(chat.evidence.root.locator("mark, [data-cited]").first()).toContainText(kind.quote);
      }
      await screenshotsAtBothWidths(page, `console-formats-${kind.file.name.replace(/\W+/g, "-")}`);
    });
  }

  await test.step("search finds the scan and opens it as the image, its lines marked", async () => {
    await page.goto(`/console/assistants/${assistant.id}/try/search`);
    const search = new SearchPage(page);
    await search.search("boiler room key");
    const result = search.results.first();
    await expect(result).toContainText("facilities-scan.png");
    await search.open(result);
    await expect(search.evidence.root.getByTestId("cited-image-evidence")).toBeVisible();
    await expect(search.evidence.root.getByTestId("cited-image-highlight").first()).toBeVisible();
    await screenshotsAtBothWidths(page, "console-formats-search-scan");
  });
});
