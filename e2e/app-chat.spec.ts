/**
 * The chat of the reference app, in Chromium against `next start` and a real service with the
 * sample corpus: a cited answer streams in, its PDF evidence is highlighted, follow-ups keep the
 * conversation's context, reloads restore it, unanswerable questions are refused and Stop keeps
 * what had arrived.
 */
import type { Locator } from "@playwright/test";
import type { PdfHighlightReference, StoredMessage } from "../sdk/core/wire.ts";
import { type ChatPage, streamedInOrder } from "./pages/chat-page.ts";
import { expect, test, uniqueUserName } from "./support/app-fixtures.ts";
import {
  delayedQueueQuestion,
  dputFollowUp,
  samplePdf,
  unanswerableQuestion,
} from "./support/app-questions.ts";
import type { AppStack } from "./support/app-stack.ts";
import { screenshotsAtBothWidths } from "./support/screenshots.ts";

/** The answers' PDF references with the number each citation shows, in the order they are numbered. */
/** The text of an answer's first claim: what the answer leads with. */
function firstClaimText(answer: Locator): Promise<string> {
  return answer.locator("[data-claim]").first().innerText();
}

function numberedPdfReferences(
  message: StoredMessage,
): Array<{ number: number; reference: PdfHighlightReference }> {
  const answer = message.answer;
  if (answer === null) return [];
  return Object.values(answer.references)
    .filter((reference): reference is PdfHighlightReference => reference.kind === "pdf_highlight")
    .map((reference) => ({ number: answer.numbering[reference.id] ?? 0, reference }))
    .sort((first, second) => first.number - second.number);
}

const citationLabel = (number: number, reference: PdfHighlightReference) =>
  `Source ${number}: ${reference.title}, p. ${reference.page_label} · page ${reference.page_index + 1} of the file`;

test("the empty chat names the documents it answers from", async ({
  page,
  appStack,
  signInPage,
  chatPage,
}) => {
  await signInPage.signIn(uniqueUserName("newcomer"));
  await chatPage.goto();
  const hint = page.getByTestId("sources-hint");
  await expect(hint).toContainText(`Answers come from ${appStack.documents.length} documents`);
  await expect(hint.getByRole("listitem")).toHaveCount(Math.min(5, appStack.documents.length));
  await expect(hint).toContainText(samplePdf);
  await screenshotsAtBothWidths(page, "empty-chat");
});

test("a signed-in user asks about the samples, the cited answer streams in, and its citation opens the PDF page with the quoted sentence highlighted", async ({
  page,
  appStack,
  signInPage,
  chatPage,
}) => {
  await signInPage.signIn(uniqueUserName("alice"));
  // The extractive engine answers in a few milliseconds; the proxy passes each line of its stream
  // on after a pause, as a model writing would, so the stream can be watched as it grows.
  appStack.proxy.paceAnswerLines(300);
  const snapshots = await chatPage.recordAnswerSnapshots();
  let answer: Locator;
  try {
    answer = await chatPage.ask(delayedQueueQuestion.question);
    await expect(answer.getByTestId("cited-status")).toBeVisible();
    await chatPage.expectAnswerDone(answer);
  } finally {
    appStack.proxy.paceAnswerLines(null);
  }
  await expect(answer).toContainText(delayedQueueQuestion.firstSentence);
  const seen = await snapshots();
  expect(
    streamedInOrder(seen, delayedQueueQuestion.firstSentence, delayedQueueQuestion.secondSentence),
    `the first sentence showed before the second arrived; seen: ${JSON.stringify(seen)}`,
  ).toBe(true);
  await expect(chatPage.citations(answer).first()).toBeVisible();

  const conversationId = await chatPage.conversationId();
  const [, stored] = await chatPage.storedMessages(conversationId);
  const [cited] = numberedPdfReferences(stored!);
  expect(cited, "the answer cites the sample PDF").toBeDefined();
  const { number, reference } = cited!;
  expect(reference.title).toBe(samplePdf);
  expect(reference.page_index + 1).toBe(delayedQueueQuestion.pageNumber);
  expect(reference.page_label).toBe(delayedQueueQuestion.printedPage);

  await chatPage.openCitation(answer, citationLabel(number, reference));
  await chatPage.evidence.expectPdfPage(reference.page_index + 1);
  await expect(chatPage.evidence.pdf).toContainText(
    `p. ${delayedQueueQuestion.printedPage} · page ${delayedQueueQuestion.pageNumber} of the file`,
  );
  await chatPage.evidence.expectHighlightOnQuote(reference.page_index, reference.quote);
  // Readable where it opens: the cited lines fill the panel, and the chat keeps a readable line beside it.
  const lineHeight = await chatPage.evidence.citedLineHeight();
  test.info().annotations.push({ type: "cited line height", description: `${lineHeight} px` });
  expect(lineHeight).toBeGreaterThanOrEqual(14);
  const chatColumn = await page.getByRole("main", { name: "Conversation" }).boundingBox();
  expect(chatColumn?.width ?? 0).toBeGreaterThanOrEqual(448);
  await expect(chatPage.conversations.items.first()).toBeHidden();
  await page.screenshot({ path: test.info().outputPath("chat-with-pdf-evidence.png") });
});

test("a follow-up in the same conversation is answered in it, with what it asks first", async ({
  signInPage,
  chatPage,
}) => {
  await signInPage.signIn(uniqueUserName("alice"));
  await chatPage.askAndWait(delayedQueueQuestion.question);
  const conversationId = await chatPage.conversationId();
  const followUp = await chatPage.askAndWait(dputFollowUp.question);

  await expect(followUp).toContainText(dputFollowUp.answerContains);
  expect(await firstClaimText(followUp)).toContain(dputFollowUp.answerContains);
  await expect(chatPage.citations(followUp).first()).toBeVisible();
  expect(await chatPage.conversationId()).toBe(conversationId);
  await expect(chatPage.conversations.items).toHaveCount(1);

  // The same words in a new conversation have no first question to lean on.
  await chatPage.conversations.newConversationLink.click();
  await expect(chatPage.answers).toHaveCount(0);
  const alone = await chatPage.askAndWait(dputFollowUp.question);
  expect(await firstClaimText(alone)).toContain(dputFollowUp.answerContains);
  expect(await chatPage.conversationId()).not.toBe(conversationId);
});

test("after a reload the conversation is listed and shows its questions, answers and citations", async ({
  page,
  signInPage,
  chatPage,
}) => {
  await signInPage.signIn(uniqueUserName("alice"));
  await chatPage.askAndWait(delayedQueueQuestion.question);
  await chatPage.askAndWait(dputFollowUp.question);
  const conversationId = await chatPage.conversationId();

  await page.reload();
  await expect(chatPage.userMessages).toHaveText([delayedQueueQuestion.question, dputFollowUp.question]);
  await expect(chatPage.answers).toHaveCount(2);
  await expect(chatPage.answers.nth(0)).toContainText(delayedQueueQuestion.firstSentence);
  await expect(chatPage.answers.nth(1)).toContainText(dputFollowUp.answerContains);
  for (const answer of await chatPage.answers.all()) {
    await expect(chatPage.citations(answer).first()).toBeVisible();
  }

  // From a new conversation, the list leads back to it.
  await chatPage.goto();
  await expect(chatPage.answers).toHaveCount(0);
  await chatPage.conversations.open(delayedQueueQuestion.question);
  await expect(page).toHaveURL(new RegExp(`/chat/${conversationId}$`));
  await expect(chatPage.answers).toHaveCount(2);

  // The restored citations still open their evidence.
  const [, firstAnswer] = await chatPage.storedMessages(conversationId);
  const [cited] = numberedPdfReferences(firstAnswer!);
  await chatPage.openCitation(chatPage.answers.nth(0), citationLabel(cited!.number, cited!.reference));
  await chatPage.evidence.expectPdfPage(cited!.reference.page_index + 1);
  await chatPage.evidence.expectHighlightOnQuote(cited!.reference.page_index, cited!.reference.quote);
});

test("a question the samples cannot answer is refused, without citations", async ({
  signInPage,
  chatPage,
}) => {
  await signInPage.signIn(uniqueUserName("alice"));
  const answer = await chatPage.askAndWait(unanswerableQuestion);
  await expect(answer.getByTestId("cited-refusal")).toBeVisible();
  await expect(answer).toContainText("WireGuard");
  await expect(chatPage.citations(answer)).toHaveCount(0);
});

/**
 * Asks while the service's stream stalls after its first sentence: the proxy holds each later line 5 s, as
 * a slow model would write. Returns the answer once its first sentence shows; the caller ends the stall.
 */
async function askWithStalledStream(appStack: AppStack, chatPage: ChatPage): Promise<Locator> {
  appStack.proxy.paceAnswerLines(5_000, (line) => line.includes('"type":"utterance"'));
  const answer = await chatPage.ask(delayedQueueQuestion.question);
  await expect(answer).toContainText(delayedQueueQuestion.firstSentence);
  return answer;
}

/** Stopped after its first sentence: marked so, and no status says the service still works on it. */
async function expectStoppedAfterFirstSentence(answer: Locator): Promise<void> {
  await expect(answer.getByTestId("cited-answer-partial")).toBeVisible();
  await expect(answer.getByTestId("cited-status")).toHaveText("");
  await expect(answer).toContainText(delayedQueueQuestion.firstSentence);
  await expect(answer).not.toContainText(delayedQueueQuestion.secondSentence);
}

test("Stop keeps the part of the answer that had arrived, marked as stopped, also after a reload", async ({
  page,
  appStack,
  signInPage,
  chatPage,
}) => {
  await signInPage.signIn(uniqueUserName("alice"));
  const asked = appStack.proxy.mark();
  try {
    // Stop comes while the second sentence is still being written.
    const answer = await askWithStalledStream(appStack, chatPage);
    await chatPage.stopButton.click();

    await expectStoppedAfterFirstSentence(answer);
    await expect(chatPage.askButton).toBeVisible();
    // Stopping reaches the service's side: the app closed its request before the stream had ended.
    await expect
      .poll(() => appStack.proxy.requestsSince(asked).filter((request) => request.path.endsWith("/ask")))
      .toEqual([expect.objectContaining({ closedEarly: true, finished: false })]);
  } finally {
    appStack.proxy.paceAnswerLines(null);
  }

  const conversationId = await chatPage.conversationId();
  await page.reload();
  expect(await chatPage.conversationId()).toBe(conversationId);
  await expectStoppedAfterFirstSentence(chatPage.answers.last());
});

test("a reload while the answer is being written returns to that conversation, not to an empty chat", async ({
  page,
  appStack,
  signInPage,
  chatPage,
}) => {
  await signInPage.signIn(uniqueUserName("alice"));
  let conversationId: string;
  try {
    const answer = await askWithStalledStream(appStack, chatPage);
    // The address names the conversation as soon as it exists, while its answer is still being written.
    conversationId = await chatPage.conversationId();
    await expect(answer.getByTestId("cited-answer")).toHaveAttribute("data-phase", "streaming");
    await expect(answer).not.toContainText(delayedQueueQuestion.secondSentence);
    await page.reload();
  } finally {
    appStack.proxy.paceAnswerLines(null);
  }

  expect(await chatPage.conversationId()).toBe(conversationId);
  await expect(chatPage.userMessages).toHaveText([delayedQueueQuestion.question]);
  await expect(chatPage.conversations.current).toHaveCount(1);
  // Leaving the page stopped the answer: what had arrived is saved a moment later, and shows as stopped.
  await expectStoppedAfterFirstSentence(chatPage.answers.last());
  await expect(chatPage.missingAnswer).toHaveCount(0);
});
