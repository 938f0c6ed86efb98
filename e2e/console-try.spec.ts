/**
 * The console's Try tab against `next start` and a real service: an operator chats with the assistant
 * and searches it as its users would, through a key the service makes to expire within the hour; the
 * test conversations stay in the Try tab, out of the operator's own chat, and the browser never holds
 * the key or the admin token.
 */
import { resolve } from "node:path";
import { createAdminClient } from "../sdk/admin/index.ts";
import { uploadFile } from "../service/cli/admin-client.ts";
import { waitForDocuments } from "../service/testing/sharing-area.ts";
import { ChatPage } from "./pages/chat-page.ts";
import { allDatasources, SearchPage } from "./pages/search-page.ts";
import { expect, test } from "./support/app-fixtures.ts";
import { delayedQueueQuestion, samplePdf, searchQuery } from "./support/app-questions.ts";
import { datasourceNames } from "./support/app-stack.ts";
import { consoleStackOptions, operatorName } from "./support/console-stack.ts";
import { screenshotsAtBothWidths } from "./support/screenshots.ts";

test.use({ appStackOptions: consoleStackOptions });

test("an operator asks in the Try tab, the citation opens its PDF page, and the test conversation stays out of their chat", async ({
  page,
  appStack,
  signInPage,
}) => {
  const received: string[] = [];
  page.on("response", async (response) => {
    if (new URL(response.url()).origin !== appStack.appUrl) return;
    received.push(await response.text().catch(() => ""));
  });
  // An assistant of its own, holding the sample PDF alone: other console specs add sources to the stack's.
  const admin = createAdminClient({ baseUrl: appStack.serviceUrl, adminToken: appStack.adminToken });
  const assistant = await admin.createAssistant("Try e2e");
  await uploadFile(admin, assistant.id, resolve(import.meta.dirname, "../samples/sources", samplePdf));
  await waitForDocuments(admin, assistant.id);
  await signInPage.signIn(operatorName);
  const tryPath = `/console/assistants/${assistant.id}/try`;
  await page.goto(tryPath);
  await expect(
    page.getByRole("navigation", { name: "Assistant" }).getByRole("link", { name: "Try" }),
  ).toHaveAttribute("aria-current", "page");
  const chat = new ChatPage(page);
  await expect(page.getByTestId("sources-hint")).toContainText("Answers come from one document");
  const answer = await chat.ask(delayedQueueQuestion.question);
  await chat.expectAnswerDone(answer);
  await expect(answer).toContainText(delayedQueueQuestion.firstSentence);
  await expect(page).toHaveURL(new RegExp(`${tryPath}/[0-9a-f-]{36}$`));
  await expect(chat.conversations.current).toHaveCount(1);
  const title = (await chat.conversations.titles())[0] ?? "";
  expect(title).toContain("DELAYED queue");

  await chat.openCitation(
    answer,
    `Source 1: ${samplePdf}, p. ${delayedQueueQuestion.printedPage} · page ${delayedQueueQuestion.pageNumber} of the file`,
  );
  await expect(chat.evidence.pdf).toContainText(samplePdf);
  await chat.evidence.expectPdfPage(delayedQueueQuestion.pageNumber);
  await screenshotsAtBothWidths(page, "console-try-chat");

  const conversationId = await chat.conversationId();
  // Kept: a reload shows the conversation and its answer again.
  await page.reload();
  await expect(chat.answers.first()).toContainText(delayedQueueQuestion.firstSentence);

  // The service made one key for it, with both scopes, ending within the hour; the browser got neither it nor the admin token.
  const trialKeys = (await admin.listKeys(assistant.id)).filter(
    (key) => key.expires_at !== null && key.revoked_at === null,
  );
  expect(trialKeys).toHaveLength(1);
  expect(trialKeys[0]?.scopes).toEqual(["ask", "rag"]);
  const left = Date.parse(trialKeys[0]?.expires_at ?? "") - Date.now();
  expect(left).toBeGreaterThan(50 * 60_000);
  expect(left).toBeLessThanOrEqual(60 * 60_000);
  expect(received.length).toBeGreaterThan(3);
  expect(received.filter((body) => body.includes("cka_live_") || body.includes(appStack.adminToken))).toEqual(
    [],
  );

  await page.goto(`/console/assistants/${assistant.id}/keys`);
  await expect(page.locator(`[data-key-id="${trialKeys[0]?.id}"]`).getByTestId("key-expires")).toContainText(
    "refused from",
  );

  // A trial key revoked in the Keys tab is replaced: the next question is answered, with no error.
  await admin.revokeKey(trialKeys[0]?.id ?? "");
  await page.goto(`${tryPath}/${conversationId}`);
  const followUp = await chat.ask(delayedQueueQuestion.question);
  await chat.expectAnswerDone(followUp);
  await expect(chat.errorBanner).toHaveCount(0);
  const keysNow = (await admin.listKeys(assistant.id)).filter((key) => key.expires_at !== null);
  expect(keysNow.find((key) => key.id === trialKeys[0]?.id)?.revoked_at).not.toBeNull();
  expect(keysNow.filter((key) => key.revoked_at === null)).toHaveLength(1);

  // Revoked again, the search replaces it as well: the next search finds, with no error.
  await admin.revokeKey(keysNow.find((key) => key.revoked_at === null)?.id ?? "");
  await page.goto(`${tryPath}/search?q=${encodeURIComponent("delayed upload")}`);
  await expect(page.getByTestId("search-result").first()).toBeVisible();
  await expect(page.getByTestId("error-banner")).toHaveCount(0);

  // The operator's own chat does not list it, nor open it.
  await page.goto("/chat");
  await expect(chat.questionInput).toBeVisible();
  await expect(chat.conversations.item(title)).toHaveCount(0);
  await page.goto(`/chat/${conversationId}`);
  await expect(page.getByRole("heading", { name: "There is nothing at this address" })).toBeVisible();
  await admin.deleteAssistant(assistant.id);
});

test("the Try tab searches the assistant's sources, with its own datasources to choose from", async ({
  page,
  appStack,
  signInPage,
}) => {
  // The service's own names of the assistant's datasources (other console specs add some): the console knows no others.
  const admin = createAdminClient({ baseUrl: appStack.serviceUrl, adminToken: appStack.adminToken });
  const datasources = (await admin.listDatasources(appStack.assistantId)).map(
    (datasource) => datasource.name,
  );
  expect(datasources).toEqual(expect.arrayContaining(Object.keys(datasourceNames)));
  await signInPage.signIn(operatorName);
  await page.goto(`/console/assistants/${appStack.assistantId}/try/search`);
  const search = new SearchPage(page);
  await expect(search.datasourceSelect.locator("option")).toHaveText([allDatasources, ...datasources]);
  await search.search(searchQuery.query);
  await expect(search.results.first()).toBeVisible();
  await expect(search.results.first().locator("mark").first()).toHaveText(/upload/i);
  await expect(
    page.getByRole("navigation", { name: "Try" }).getByRole("link", { name: "Search" }),
  ).toHaveAttribute("aria-current", "page");
  await search.open(search.results.first());
  await expect(search.evidence.pdf).toBeVisible();
  await expect(search.evidence.highlights.first()).toBeVisible();
  await screenshotsAtBothWidths(page, "console-try-search");
});
