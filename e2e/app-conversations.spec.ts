/** The conversation list: most recently active first, renamed and deleted for good (a reload agrees). */
import type { ChatPage } from "./pages/chat-page.ts";
import { expect, test, uniqueUserName } from "./support/app-fixtures.ts";
import { delayedQueueQuestion, unanswerableQuestion } from "./support/app-questions.ts";
import { screenshotsAtBothWidths } from "./support/screenshots.ts";

test("conversations are listed most recent first, and a rename or a delete outlasts a reload", async ({
  page,
  signInPage,
  chatPage,
}) => {
  await signInPage.signIn(uniqueUserName("heidi"));
  await chatPage.askAndWait(delayedQueueQuestion.question);
  await chatPage.conversations.newConversationLink.click();
  await expect(chatPage.answers).toHaveCount(0);
  await chatPage.askAndWait(unanswerableQuestion);
  const { conversations } = chatPage;
  await expect(conversations.items).toHaveCount(2);
  expect(await conversations.titles()).toEqual([unanswerableQuestion, delayedQueueQuestion.question]);

  await conversations.rename(delayedQueueQuestion.question, "Delayed uploads");
  await page.reload();
  // A new title is not activity: the order stays.
  expect(await conversations.titles()).toEqual([unanswerableQuestion, "Delayed uploads"]);

  await conversations.delete(unanswerableQuestion);
  await page.reload();
  expect(await conversations.titles()).toEqual(["Delayed uploads"]);
});

test("a question asked just after New conversation goes into the new conversation", async ({
  signInPage,
  chatPage,
}) => {
  await signInPage.signIn(uniqueUserName("ivy"));
  const first = await chatPage.ask(delayedQueueQuestion.question);
  await chatPage.expectAnswerDone(first);
  // At once, as a quick person would: the app may still be storing the first answer.
  await chatPage.conversations.newConversationLink.click();
  await expect(chatPage.answers).toHaveCount(0);
  const second = await chatPage.askAndWait(unanswerableQuestion);
  await expect(second.getByTestId("cited-refusal")).toBeVisible();
  await expect(chatPage.userMessages).toHaveText([unanswerableQuestion]);
  expect(await chatPage.conversations.titles()).toEqual([
    unanswerableQuestion,
    delayedQueueQuestion.question,
  ]);
});

for (const [link, startNew] of [
  ["New conversation", (chatPage: ChatPage) => chatPage.conversations.newConversationLink],
  ["the header's Chat", (chatPage: ChatPage) => chatPage.headerChatLink],
] as const) {
  test(`a person who clicks ${link} while the first answer is written stays in a new conversation`, async ({
    page,
    signInPage,
    chatPage,
  }) => {
    await signInPage.signIn(uniqueUserName("judy"));
    // A slow server: every page the router fetches arrives late, so the moves overlap the answer.
    await page.route(
      (url) => url.searchParams.has("_rsc"),
      async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 2_500));
        await route.continue().catch(() => undefined);
      },
    );
    const first = await chatPage.ask(delayedQueueQuestion.question);
    // The service has begun: the conversation exists and the page is moving to its address.
    await expect(first.getByTestId("cited-status")).not.toBeEmpty();
    await startNew(chatPage).click();
    // Once the answer is stored, the list is read again and names the first conversation.
    await expect(chatPage.conversations.items).toHaveText([delayedQueueQuestion.question], {
      timeout: 20_000,
    });
    await expect(page).toHaveURL(/\/chat$/);
    await expect(chatPage.answers).toHaveCount(0);
    await screenshotsAtBothWidths(page, "new-chat-while-answering");
    // The first answer was written to its end and stored in its own conversation.
    await chatPage.conversations.items.getByRole("link").click();
    await chatPage.expectAnswerDone(chatPage.answers.first());
    await expect(chatPage.answers.getByTestId("cited-answer-partial")).toHaveCount(0);
  });
}

test("a first question whose ask fails before it is stored leaves its conversation titled by the question, not untitled", async ({
  page,
  signInPage,
  chatPage,
}) => {
  await signInPage.signIn(uniqueUserName("nora"));
  await page.route("**/api/cited/conversations/*/ask", (route) => route.abort("connectionreset"));
  await chatPage.questionInput.fill(delayedQueueQuestion.question);
  await chatPage.askButton.click();
  await expect(chatPage.errorBanner).toBeVisible({ timeout: 30_000 });
  await page.unrouteAll({ behavior: "ignoreErrors" });
  await page.reload();
  expect(await chatPage.conversations.titles()).toEqual([delayedQueueQuestion.question]);
});
