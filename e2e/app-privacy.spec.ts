/**
 * One user's conversations are theirs alone: another user neither lists nor opens them, and the
 * app refuses them the first user's PDF evidence before anything reaches the service, as the
 * proxy in front of the service counts.
 */
import { ChatPage } from "./pages/chat-page.ts";
import { SignInPage } from "./pages/sign-in-page.ts";
import { expect, test, uniqueUserName } from "./support/app-fixtures.ts";
import { delayedQueueQuestion } from "./support/app-questions.ts";

const isPdfSliceRequest = (path: string) => path.startsWith("/chat/reference/pdf/");

test("a second user cannot list or open the first user's conversation, nor fetch its PDF evidence", async ({
  browser,
  appStack,
  signInPage,
  chatPage,
}) => {
  // The first user asks a question the sample PDF answers.
  await signInPage.signIn(uniqueUserName("alice"));
  await chatPage.askAndWait(delayedQueueQuestion.question);
  const conversationId = await chatPage.conversationId();
  const [, answer] = await chatPage.storedMessages(conversationId);
  const pdfReference = Object.values(answer?.answer?.references ?? {}).find(
    (reference) => reference.kind === "pdf_highlight",
  );
  expect(pdfReference, "the answer cites the sample PDF").toBeDefined();
  const pdfPath = `/api/cited/pdf/${answer!.id}/${pdfReference!.id}`;

  // Their own evidence is served, and the proxy sees that request reach the service.
  const beforeOwner = appStack.proxy.mark();
  const ownResponse = await chatPage.page.request.get(pdfPath);
  expect(ownResponse.status()).toBe(200);
  expect(ownResponse.headers()["content-type"]).toContain("application/pdf");
  expect(
    appStack.proxy.requestsSince(beforeOwner).filter((request) => isPdfSliceRequest(request.path)),
  ).toHaveLength(1);
  // Nothing of the first user's runs while the second one tries.
  await chatPage.page.goto("about:blank");

  // The second user, in a browser of their own.
  const secondContext = await browser.newContext({ baseURL: appStack.appUrl });
  try {
    const secondPage = await secondContext.newPage();
    const secondChat = new ChatPage(secondPage);
    await new SignInPage(secondPage).signIn(uniqueUserName("bob"));

    await expect(secondChat.conversations.items).toHaveCount(0);
    await expect(secondPage.getByText(delayedQueueQuestion.question)).toHaveCount(0);

    // The page streams (a loading state comes first), so its status is sent before the page knows
    // the conversation is not theirs: what they see is the "not found" page, and nothing of it.
    await secondPage.goto(`/chat/${conversationId}`);
    await expect(secondPage.getByRole("heading", { name: "There is nothing at this address" })).toBeVisible();
    await expect(secondPage.getByText(delayedQueueQuestion.question)).toHaveCount(0);
    await expect(secondChat.answers).toHaveCount(0);

    for (const path of [
      `/api/cited/conversations/${conversationId}`,
      `/api/cited/conversations/${conversationId}/messages`,
    ]) {
      expect((await secondPage.request.get(path)).status(), path).toBe(404);
    }
    const listed = await secondPage.request.get("/api/cited/conversations");
    expect(await listed.json()).toEqual({ conversations: [] });

    // The first user's PDF reference, asked for by the second: refused by the app alone.
    const beforeSecond = appStack.proxy.mark();
    const refused = await secondPage.request.get(pdfPath);
    expect([403, 404]).toContain(refused.status());
    expect(refused.headers()["content-type"]).not.toContain("application/pdf");
    expect(appStack.proxy.requestsSince(beforeSecond), "requests that reached the service").toEqual([]);
  } finally {
    await secondContext.close();
  }
});
