/**
 * The chat on a 390×844 phone: the page fits the screen, a question can be asked, and a citation
 * opens its PDF evidence as a sheet from the bottom over the chat, which closes again.
 */
import type { Page } from "@playwright/test";
import { expect, test, uniqueUserName } from "./support/app-fixtures.ts";
import { delayedQueueQuestion, dputFollowUp } from "./support/app-questions.ts";

const phone = { width: 390, height: 844 };

test.use({ viewport: phone, hasTouch: true, isMobile: true });

test("on a phone the chat fits the screen, a citation opens its PDF page in a full-height sheet, and the chat goes on after it closes", async ({
  page,
  signInPage,
  chatPage,
}) => {
  await signInPage.signIn(uniqueUserName("dana"));
  await expect(chatPage.questionInput).toBeInViewport();
  await expect(chatPage.askButton).toBeInViewport();
  const answer = await chatPage.askAndWait(delayedQueueQuestion.question);
  await expect(answer).toContainText(delayedQueueQuestion.firstSentence);
  expect(await horizontalOverflow(page), "the chat scrolls sideways").toBe(0);

  const citation = chatPage.citations(answer).first();
  await citation.scrollIntoViewIfNeeded();
  await citation.tap();
  const { evidence } = chatPage;
  await evidence.expectPdfPage(delayedQueueQuestion.pageNumber);

  // A sheet over the whole screen: the page has all the room a phone has.
  const sheet = await evidence.root.boundingBox();
  expect(sheet).not.toBeNull();
  expect(sheet).toMatchObject({ x: 0, y: 0, width: phone.width, height: phone.height });
  await expect(evidence.highlights.first()).toBeInViewport();
  test
    .info()
    .annotations.push({ type: "cited line height", description: `${await evidence.citedLineHeight()} px` });
  // The page's lines are small at a phone's width: the quote is there in readable type too.
  const quote = evidence.root.getByTestId("cited-pdf-quote");
  await expect(quote).toBeVisible();
  await expect(quote).toContainText(delayedQueueQuestion.firstSentence);
  await expect(evidence.closeButton).toBeInViewport();
  expect(await horizontalOverflow(page), "the sheet scrolls sideways").toBe(0);
  await page.screenshot({ path: test.info().outputPath("phone-evidence-sheet.png") });

  // Closed, the chat is back and takes the next question.
  await evidence.close();
  await expect(chatPage.questionInput).toBeInViewport();
  const followUp = await chatPage.askAndWait(dputFollowUp.question);
  await expect(followUp).toContainText(dputFollowUp.answerContains);
  expect(await horizontalOverflow(page)).toBe(0);
  await page.screenshot({ path: test.info().outputPath("phone-chat.png") });
});

/** How far the page can scroll sideways, in CSS pixels (0 when it fits the screen's width). */
function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}
