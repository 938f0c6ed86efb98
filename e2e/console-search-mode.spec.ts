/**
 * A service without an embedding model: the console's sources page says answers use words only, and
 * why, and no source claims to be found by meaning. (With the model, see console-sources.spec.ts.)
 */
import { ConsoleAssistantsPage } from "./pages/console-assistants-page.ts";
import { ConsoleSourcesPage } from "./pages/console-sources-page.ts";
import { expect, test } from "./support/app-fixtures.ts";
import { samplePdf } from "./support/app-questions.ts";
import { consoleStackOptions, operatorName } from "./support/console-stack.ts";
import { screenshotsAtBothWidths } from "./support/screenshots.ts";

test.use({ appStackOptions: { ...consoleStackOptions, semanticSearch: false } });

test("the sources page says answers use words only, and why", async ({ page, signInPage }) => {
  await signInPage.signIn(operatorName);
  await page.getByTestId("console-link").click();
  await new ConsoleAssistantsPage(page).open("Cited e2e");
  const sources = new ConsoleSourcesPage(page);
  const notice = page.getByRole("region", { name: "Search mode" });
  await expect(notice).toContainText("Searching by words only.");
  await expect(notice).toContainText("CKA_EMBEDDINGS=off");
  await expect(sources.row(samplePdf).getByTestId("source-detail")).toContainText("Searchable");
  await expect(sources.row(samplePdf).getByTestId("source-detail")).not.toContainText("by meaning");
  await screenshotsAtBothWidths(page, "console-sources-lexical");
});
