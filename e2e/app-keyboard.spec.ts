/**
 * A keyboard user's way through the chat: a skip link first, past the header and the conversation
 * list, to the conversation, where the first citation is the next stop.
 */
import { expect, test, uniqueUserName } from "./support/app-fixtures.ts";
import { delayedQueueQuestion, dputFollowUp } from "./support/app-questions.ts";
import { screenshotsAtBothWidths } from "./support/screenshots.ts";

test("a skip link leads past the header and the conversation list, and the next Tab reaches the first citation", async ({
  page,
  signInPage,
  chatPage,
}) => {
  await signInPage.signIn(uniqueUserName("keys"));
  // A list of several conversations: each adds stops a skip link saves.
  await chatPage.askAndWait(dputFollowUp.question);
  await chatPage.conversations.newConversationLink.click();
  await expect(chatPage.answers).toHaveCount(0);
  await chatPage.askAndWait(delayedQueueQuestion.question);
  await page.reload();
  await expect(chatPage.answers).toHaveCount(1);

  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to the main content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await screenshotsAtBothWidths(page, "skip-link");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("main", { name: "Conversation" })).toBeFocused();

  await page.keyboard.press("Tab");
  await expect(chatPage.citations(chatPage.answers.first()).first()).toBeFocused();
});

test("an unknown conversation and an unknown address say there is nothing there, with the ways back", async ({
  page,
  signInPage,
}) => {
  await signInPage.signIn(uniqueUserName("lost"));
  // The chat's pages stream (a loading state first), so an unknown conversation is said in the page;
  // an address with no page at all is a 404 too.
  for (const address of ["/chat/00000000-0000-4000-8000-000000000000", "/no-such-page"]) {
    const response = await page.goto(address);
    if (address === "/no-such-page") expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "There is nothing at this address" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Start a conversation" })).toBeVisible();
  }
  await screenshotsAtBothWidths(page, "not-found");
});
