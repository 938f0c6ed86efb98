/**
 * The console's sources page against `next start` and a real service: files dropped at once are
 * each sent on their own with progress, read by the service, and searchable in the chat; a corrupt
 * PDF fails with a reason a person can read and harms nothing else.
 */
import { resolve } from "node:path";
import { assistantSchema, documentListSchema } from "../sdk/admin/schemas.ts";
import { uploadFiles } from "../service/testing/sharing-area.ts";
import { ConsoleAssistantsPage } from "./pages/console-assistants-page.ts";
import { ConsoleSourcesPage, type SourceFile, sourceFile } from "./pages/console-sources-page.ts";
import { expect, test } from "./support/app-fixtures.ts";
import { samplePdf } from "./support/app-questions.ts";
import { consoleStackOptions, maxUploadBytes, operatorName } from "./support/console-stack.ts";
import { screenshotsAtBothWidths } from "./support/screenshots.ts";

test.use({ appStackOptions: consoleStackOptions });

const evalPdfs = resolve(import.meta.dirname, "../../shared/eval/pdfs");

/** Answered from page 21 of gnuplot.pdf (../shared/eval, d036). */
const gnuplotQuestion = {
  question: "How long has gnuplot been in active development?",
  answerContains: "since 1986",
};

const markdown: SourceFile = {
  name: "release-checklist.md",
  mimeType: "text/markdown",
  buffer: Buffer.from(
    "# Release checklist\n\n## Before the freeze\n\nEvery release candidate is signed with the team's offline key and announced on the mailing list two days before the freeze.\n",
  ),
};

test("with the embedding model, each ready source says it is found by meaning too, and nothing warns", async ({
  page,
  signInPage,
}) => {
  await signInPage.signIn(operatorName);
  await page.getByTestId("console-link").click();
  await new ConsoleAssistantsPage(page).open("Cited e2e");
  const sources = new ConsoleSourcesPage(page);
  await expect(sources.row(samplePdf).getByTestId("source-detail")).toContainText("by meaning too");
  await expect(page.getByRole("region", { name: "Search mode" })).toHaveCount(0);
  await screenshotsAtBothWidths(page, "console-sources-semantic");
});

test("an operator drops two PDFs and a Markdown file, watches each become ready with its pages, then the chat answers from one with a citation that opens it", async ({
  page,
  signInPage,
  chatPage,
}) => {
  test.setTimeout(240_000);
  await signInPage.signIn(operatorName);
  await page.getByTestId("console-link").click();
  const assistants = new ConsoleAssistantsPage(page);
  await expect(assistants.banner).toContainText("Operator console");
  await assistants.open("Cited e2e");

  const sources = new ConsoleSourcesPage(page);
  await sources.datasourceInput.fill("eval");
  const states = await sources.recordStates();
  const files = [
    sourceFile(resolve(evalPdfs, "developers-reference.pdf"), "application/pdf"),
    sourceFile(resolve(evalPdfs, "gnuplot.pdf"), "application/pdf"),
    markdown,
  ];
  await sources.drop(files);
  // Progress shows where the files were dropped, also on a phone where the rows are far below.
  await expect(page.getByTestId("work-summary")).toContainText(/(Sending|Reading) \d+ files?/);
  for (const file of files) await expect(sources.row(file.name)).toBeVisible();
  const before = await sources.rows.evaluateAll((rows) => rows.map((row) => row.getAttribute("data-state")));
  await screenshotsAtBothWidths(page, "console-sources-mid-ingestion");
  expect(
    before.filter((state) => state !== "ready").length,
    "the screenshots show files still on their way",
  ).toBeGreaterThan(0);

  for (const file of files) await sources.expectState(file.name, "ready", 180_000);
  await expect(page.getByTestId("work-summary")).toHaveCount(0);
  await expect(sources.detail("developers-reference.pdf")).toContainText("114 pages");
  await expect(sources.detail("gnuplot.pdf")).toContainText("311 pages");
  await expect(sources.detail(markdown.name)).toContainText("Searchable");
  await expect(sources.group("eval").getByTestId("source-row")).toHaveCount(3);

  const seen = await states();
  for (const file of files) {
    const path = (seen[file.name] ?? []).map((entry) => entry.state);
    expect(path[0], `${file.name}: ${JSON.stringify(path)}`).toBe("uploading");
    expect(path.at(-1)).toBe("ready");
  }
  const progress = (seen["gnuplot.pdf"] ?? []).filter((entry) => entry.state === "processing");
  expect(
    progress.some((entry) => /Reading page \d+ of 311/.test(entry.detail)),
    `gnuplot.pdf showed its pages being read: ${JSON.stringify(seen["gnuplot.pdf"])}`,
  ).toBe(true);

  await page.getByRole("link", { name: "Chat", exact: true }).click();
  const answer = await chatPage.askAndWait(gnuplotQuestion.question);
  await expect(answer).toContainText(gnuplotQuestion.answerContains);
  // Cited by the document's own title, with its file's name beside it in the evidence.
  await answer
    .getByRole("button", { name: /gnuplot documentation, page 21/ })
    .first()
    .click();
  await chatPage.evidence.expectPdfPage(21);
  await expect(chatPage.evidence.pdf).toContainText("gnuplot.pdf · page 21");
});

test("a corrupt PDF fails with a reason in plain words, the file dropped with it and the other sources stay ready, and it can be deleted", async ({
  page,
  appStack,
  signInPage,
}) => {
  await signInPage.signIn(operatorName);
  const sources = new ConsoleSourcesPage(page);
  await sources.goto(appStack.assistantId);
  await sources.datasourceInput.fill("broken uploads");
  const corrupt: SourceFile = {
    name: "scanned-contract.pdf",
    mimeType: "application/pdf",
    buffer: Buffer.concat([Buffer.from("%PDF-1.7\n1 0 obj\n<< /Type /Catalog"), Buffer.alloc(4096, 0x5a)]),
  };
  const companion: SourceFile = {
    name: "companion-notes.md",
    mimeType: "text/markdown",
    buffer: Buffer.from("# Companion notes\n\nThe archive room key is kept at the front desk.\n"),
  };
  await sources.choose([corrupt, companion]);

  await sources.expectState(corrupt.name, "failed", 60_000);
  const reason = (await sources.detail(corrupt.name).textContent()) ?? "";
  expect(reason.length).toBeGreaterThan(15);
  expect(reason).toContain("PDF");
  expect(reason).not.toMatch(/\bat \S+ \(|Error:|undefined|\[object|stack/i);
  await sources.expectState(companion.name, "ready", 60_000);
  for (const document of appStack.documents) await sources.expectState(document.file_name, "ready");

  await sources.delete(corrupt.name);
  await page.reload();
  await expect(sources.row(companion.name)).toBeVisible();
  await expect(sources.row(corrupt.name)).toHaveCount(0);
});

test("a file over the service's limit is refused in the page with the limit named, and is never sent", async ({
  page,
  appStack,
  signInPage,
}) => {
  await signInPage.signIn(operatorName);
  const sources = new ConsoleSourcesPage(page);
  await sources.goto(appStack.assistantId);
  await expect(sources.dropZone).toContainText("up to 4.0 MB per file");
  const mark = appStack.proxy.mark();
  await sources.drop([
    {
      name: "huge-scan.pdf",
      mimeType: "application/pdf",
      buffer: Buffer.alloc(maxUploadBytes + 1024 * 1024, 0x20),
    },
  ]);
  await sources.expectState("huge-scan.pdf", "refused");
  await expect(sources.detail("huge-scan.pdf")).toHaveText(
    "5.0 MB is over the service's limit of 4.0 MB per file, so it was not sent.",
  );
  const uploads = appStack.proxy
    .requestsSince(mark)
    .filter((request) => request.method === "POST" && request.path.endsWith("/documents"));
  expect(uploads).toEqual([]);
});

test("the sources page shows a change made elsewhere as it happens, says when it loses the service, and catches up by itself", async ({
  page,
  appStack,
  signInPage,
}) => {
  await signInPage.signIn(operatorName);
  const sources = new ConsoleSourcesPage(page);
  await sources.goto(appStack.assistantId);
  const problem = page.getByTestId("watch-problem");

  // Uploaded straight to the service (as `cka ingest` would): the page's long-poll hears it.
  const uploaded = await uploadFiles(
    appStack.serviceUrl,
    appStack.assistantId,
    [
      {
        name: "from-the-command-line.md",
        bytes: new TextEncoder().encode("# From the command line\n\nAdded with cka ingest.\n"),
      },
    ],
    { datasource: "cli", token: appStack.adminToken },
  );
  expect(uploaded.status).toBe(202);
  const [added] = documentListSchema.parse(await uploaded.json()).documents;
  await sources.expectState("from-the-command-line.md", "ready", 30_000);

  appStack.proxy.simulateOutage(true);
  try {
    // A held request ends with the change and its successor finds the service gone; a page between two
    // requests finds it gone at once and hears of the change only after the outage.
    const deleted = await fetch(
      `${appStack.serviceUrl}/admin/v1/assistants/${appStack.assistantId}/documents/${added!.id}`,
      { method: "DELETE", headers: { Authorization: `Bearer ${appStack.adminToken}` } },
    );
    expect(deleted.status).toBe(204);
    await expect(problem).toContainText("Live updates paused");
  } finally {
    appStack.proxy.simulateOutage(false);
  }
  await expect(problem).toHaveCount(0, { timeout: 20_000 });
  await expect(sources.row("from-the-command-line.md")).toHaveCount(0);
});

test("a sources page whose assistant is deleted elsewhere says the assistant is gone and stops asking", async ({
  page,
  appStack,
  signInPage,
}) => {
  const admin = { Authorization: `Bearer ${appStack.adminToken}`, "Content-Type": "application/json" };
  const created = await fetch(`${appStack.serviceUrl}/admin/v1/assistants`, {
    method: "POST",
    headers: admin,
    body: JSON.stringify({ name: "Short-lived" }),
  });
  expect(created.status).toBe(201);
  const assistant = assistantSchema.parse(await created.json());
  await signInPage.signIn(operatorName);
  const sources = new ConsoleSourcesPage(page);
  await sources.goto(assistant.id);

  const deleted = await fetch(`${appStack.serviceUrl}/admin/v1/assistants/${assistant.id}`, {
    method: "DELETE",
    headers: admin,
  });
  expect(deleted.status).toBe(204);
  await expect(page.getByTestId("assistant-gone")).toContainText("no longer exists", { timeout: 30_000 });
  await expect(page.getByTestId("watch-problem")).toHaveCount(0);
  const mark = appStack.proxy.mark();
  await page.waitForTimeout(3_000);
  const polls = appStack.proxy
    .requestsSince(mark)
    .filter((request) => request.method === "GET" && request.path.endsWith("/documents"));
  expect(polls).toEqual([]);
});

test("files dropped together are sent three at a time, the others shown as waiting until a slot frees", async ({
  page,
  appStack,
  signInPage,
}) => {
  await signInPage.signIn(operatorName);
  const sources = new ConsoleSourcesPage(page);
  await sources.goto(appStack.assistantId);
  await sources.datasourceInput.fill("batch");
  const states = await sources.recordStates();
  const files: SourceFile[] = ["north", "south", "east", "west", "centre"].map((side) => ({
    name: `${side}-wing.md`,
    mimeType: "text/markdown",
    buffer: Buffer.from(`# The ${side} wing\n\nThe ${side} wing's fire door opens with the blue badge.\n`),
  }));
  await sources.drop(files);
  for (const file of files) await sources.expectState(file.name, "ready", 60_000);
  const seen = await states();
  const first = files.map((file) => seen[file.name]?.[0]?.state);
  expect(first).toEqual(["uploading", "uploading", "uploading", "waiting", "waiting"]);
  for (const file of files.slice(3)) {
    expect((seen[file.name] ?? []).map((entry) => entry.state)).toContain("uploading");
  }
});
