/**
 * The chat's and the search's error states: when the service is down the person is told so, with
 * a request id to quote to support; when their session is gone they are signed in again.
 */
import { expect, test, uniqueUserName } from "./support/app-fixtures.ts";
import { delayedQueueQuestion, searchQuery } from "./support/app-questions.ts";

const requestId = /Request id: req_\w+/;

test("when the service is down, the chat and the search say so with a request id to quote", async ({
  appStack,
  signInPage,
  chatPage,
  searchPage,
}) => {
  await signInPage.signIn(uniqueUserName("ivan"));
  appStack.proxy.simulateOutage(true);
  try {
    await chatPage.questionInput.fill(delayedQueueQuestion.question);
    await chatPage.askButton.click();
    // The app retries a dropped connection twice, with a backoff, before it gives up.
    await expect(chatPage.errorBanner).toBeVisible({ timeout: 30_000 });
    await expect(chatPage.errorBanner).toContainText(requestId);
    await expect(chatPage.askButton).toBeVisible();
    // The question was stored before the service failed; the conversation says it has no answer.
    await expect(chatPage.userMessages).toHaveText([delayedQueueQuestion.question]);
    // At once: the chat knows the ask failed, so it does not look for an answer first.
    await expect(chatPage.missingAnswer).toHaveText(/No answer was saved for this question/, {
      timeout: 2_000,
    });
    await expect(chatPage.questionInput).toHaveValue(delayedQueueQuestion.question);

    await searchPage.goto();
    await searchPage.queryInput.fill(searchQuery.query);
    await searchPage.searchButton.click();
    await expect(searchPage.errorBanner).toBeVisible({ timeout: 30_000 });
    await expect(searchPage.errorBanner).toContainText(requestId);
    await expect(searchPage.results).toHaveCount(0);
  } finally {
    appStack.proxy.simulateOutage(false);
  }
});

test("the same question asked again after a failed ask shows once more, while its answer is written and after", async ({
  appStack,
  signInPage,
  chatPage,
}) => {
  await signInPage.signIn(uniqueUserName("judy"));
  appStack.proxy.simulateOutage(true);
  try {
    await chatPage.questionInput.fill(delayedQueueQuestion.question);
    await chatPage.askButton.click();
    await expect(chatPage.missingAnswer).toBeVisible({ timeout: 30_000 });
  } finally {
    appStack.proxy.simulateOutage(false);
  }
  const asked = [delayedQueueQuestion.question, delayedQueueQuestion.question];
  const turns = ["message-user", "message-unanswered", "message-user", "message-assistant"];

  // The composer kept the question: asking it again adds a turn below the unanswered one.
  appStack.proxy.paceAnswerLines(5_000, (line) => line.includes('"type":"utterance"'));
  try {
    await chatPage.askButton.click();
    const answer = chatPage.answers.last();
    await expect(answer).toContainText(delayedQueueQuestion.firstSentence);
    await expect(chatPage.userMessages).toHaveText(asked);
    // The first one says it got no answer, and nothing says the new one has none.
    await expect.poll(() => chatPage.turnKinds()).toEqual(turns);
    await expect(chatPage.missingAnswer).toHaveText(/No answer was saved for this question/);
    // Still being written: the questions above are what the person sees meanwhile, not after a reload.
    await expect(answer.getByTestId("cited-answer")).toHaveAttribute("data-phase", "streaming");
  } finally {
    appStack.proxy.paceAnswerLines(null);
  }
  await chatPage.expectAnswerDone(chatPage.answers.last());
  await expect(chatPage.userMessages).toHaveText(asked);
  await expect.poll(() => chatPage.turnKinds()).toEqual(turns);
});

test("a person whose session is gone is told so and brought to the sign-in, and nothing reaches the service", async ({
  page,
  appStack,
  signInPage,
  chatPage,
}) => {
  await signInPage.signIn(uniqueUserName("judy"));
  await page.context().clearCookies();
  const before = appStack.proxy.mark();
  await chatPage.questionInput.fill(delayedQueueQuestion.question);
  await chatPage.askButton.click();
  await expect(chatPage.errorBanner).toContainText("signed out");
  await expect(signInPage.form).toBeVisible();
  expect(appStack.proxy.requestsSince(before)).toEqual([]);
});
