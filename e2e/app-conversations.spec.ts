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
