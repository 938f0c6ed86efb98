/**
 * axe on the reference app's pages as a person uses them: the sign-in, the chat with a cited answer
 * and its evidence open, and the search page with results. No serious or critical violation.
 */
import { expect, test, uniqueUserName } from "./support/app-fixtures.ts";
import { delayedQueueQuestion, searchQuery } from "./support/app-questions.ts";
import { seriousViolations } from "./support/serious-violations.ts";

for (const colorScheme of ["light", "dark"] as const) {
  test.describe(`${colorScheme} theme`, () => {
    test.use({ colorScheme });

    test("the sign-in page has no serious accessibility violation", async ({ page, signInPage }) => {
      await signInPage.goto();
      expect(await seriousViolations(page)).toEqual([]);
    });

    test("the chat, with a cited answer and its evidence open, has no serious accessibility violation", async ({
      page,
      signInPage,
      chatPage,
    }) => {
      await signInPage.signIn(uniqueUserName("frank"));
      expect(await seriousViolations(page), "the empty chat").toEqual([]);
      const answer = await chatPage.askAndWait(delayedQueueQuestion.question);
      await chatPage.citations(answer).first().click();
      await chatPage.evidence.expectPdfPage(delayedQueueQuestion.pageNumber);
      expect(await seriousViolations(page), "the chat with evidence").toEqual([]);
    });

    test("the search page with results has no serious accessibility violation", async ({
      page,
      signInPage,
      searchPage,
    }) => {
      await signInPage.signIn(uniqueUserName("grace"));
      await searchPage.goto();
      await searchPage.search(searchQuery.query);
      await expect(searchPage.results.first()).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });
  });
}
