/**
 * The search page: ranked passages of the sample corpus with their page and heading, narrowed to
 * one datasource by the filter, each openable as evidence.
 */
import { allDatasources } from "./pages/search-page.ts";
import { expect, test, uniqueUserName } from "./support/app-fixtures.ts";
import { samplePdf, searchQuery } from "./support/app-questions.ts";
import { datasourceNames } from "./support/app-stack.ts";
import { screenshotsAtBothWidths } from "./support/screenshots.ts";

test("the datasource filter narrows the search to the manuals or to the notes", async ({
  signInPage,
  searchPage,
}) => {
  await signInPage.signIn(uniqueUserName("carol"));
  await searchPage.goto();
  await expect(searchPage.datasourceSelect.locator("option")).toHaveText([
    allDatasources,
    datasourceNames.manuals,
    datasourceNames.notes,
  ]);

  await searchPage.search(searchQuery.query);
  await expect(searchPage.results.first()).toContainText(samplePdf);

  // The manuals hold only the PDF: every passage names its page.
  await searchPage.search(searchQuery.query, datasourceNames.manuals);
  await expect(searchPage.results.first()).toBeVisible();
  for (const text of await searchPage.resultTexts()) {
    expect(text).toContain(samplePdf);
    expect(text).toMatch(/\bpage \d+\b/);
  }
  await searchPage.open(searchPage.results.first());
  await expect(searchPage.evidence.root).toContainText(samplePdf);
  await expect(searchPage.evidence.root).toContainText(/\bpage \d+\b/);
  // A PDF passage opens as its page, the passage's lines marked on it.
  await expect(searchPage.evidence.pdf).toBeVisible();
  await expect(searchPage.evidence.highlights.first()).toBeVisible();

  // The notes: the backup notes mention uploads, under their heading, and come first; what else is
  // found there by meaning (the release downloads) is from the notes too, never the PDF.
  await searchPage.search(searchQuery.query, datasourceNames.notes);
  await expect(searchPage.results.first()).toContainText(searchQuery.notesDocument);
  await expect(searchPage.results.first()).toContainText(searchQuery.notesHeading);
  for (const text of await searchPage.resultTexts()) expect(text).not.toContain(samplePdf);

  // A passage opens as evidence beside the results.
  await searchPage.open(searchPage.results.first());
  await expect(searchPage.evidence.root).toContainText(searchQuery.notesHeading);
  await expect(searchPage.evidence.root).toContainText("too large for one disk or upload");
});

test("results mark the query's words, in one readable column until a passage opens beside them", async ({
  page,
  signInPage,
  searchPage,
}) => {
  await signInPage.signIn(uniqueUserName("erin"));
  await searchPage.goto();
  await searchPage.search("delayed uploads");
  const marks = searchPage.results.first().locator("mark");
  await expect(marks.first()).toBeVisible();
  for (const word of await marks.allInnerTexts()) expect(word.toLowerCase()).toMatch(/^(delayed|uploads?)$/);
  const list = page.getByRole("list", { name: "Results" });
  expect((await list.boundingBox())?.width).toBeLessThanOrEqual(768);
  await screenshotsAtBothWidths(page, "search-results");

  await searchPage.open(searchPage.results.first());
  await expect(searchPage.evidence.highlights.first()).toBeVisible();
  await screenshotsAtBothWidths(page, "search-opened");
});

test("words that match nothing in the sources find nothing, and the page says so", async ({
  signInPage,
  searchPage,
}) => {
  await signInPage.signIn(uniqueUserName("finn"));
  await searchPage.goto();
  await searchPage.search("qwzxv blorptangle");
  await expect(searchPage.page.getByRole("status")).toContainText("No passage matches");
  await expect(searchPage.results).toHaveCount(0);
});
