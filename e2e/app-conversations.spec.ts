/** The conversation list: most recently active first, renamed and deleted for good (a reload agrees). */
import { expect, test, uniqueUserName } from "./support/app-fixtures.ts";
import { delayedQueueQuestion, unanswerableQuestion } from "./support/app-questions.ts";

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
