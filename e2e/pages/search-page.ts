/** The search page (`/search`): ranked passages of the corpus, filtered by datasource, each openable as evidence. */
import { expect, type Locator, type Page } from "@playwright/test";
import { EvidencePanel } from "./evidence-panel.ts";

export const allDatasources = "All datasources";

export class SearchPage {
  readonly page: Page;
  readonly queryInput: Locator;
  readonly datasourceSelect: Locator;
  readonly searchButton: Locator;
  readonly results: Locator;
  readonly errorBanner: Locator;
  readonly evidence: EvidencePanel;

  constructor(page: Page) {
    this.page = page;
    this.queryInput = page.getByLabel("Search", { exact: true });
    this.datasourceSelect = page.getByLabel("Datasource");
    this.searchButton = page.getByRole("button", { name: "Search", exact: true });
    this.results = page.getByTestId("search-result");
    this.errorBanner = page.getByTestId("error-banner");
    this.evidence = new EvidencePanel(page);
  }

  async goto(): Promise<void> {
    await this.page.goto("/search");
    await expect(this.queryInput).toBeVisible();
  }

  /** Searches `query` in one datasource (by the name the filter shows) and waits for the page of results. */
  async search(query: string, datasource: string = allDatasources): Promise<void> {
    await this.queryInput.fill(query);
    await this.datasourceSelect.selectOption({ label: datasource });
    const datasourceId = await this.datasourceSelect.inputValue();
    await this.searchButton.click();
    // The form is a GET form: the query and the filter land in the address, then the results.
    await expect(this.page).toHaveURL(
      (url) =>
        url.searchParams.get("q") === query && (url.searchParams.get("datasource") ?? "") === datasourceId,
    );
    await expect(this.datasourceSelect.locator("option:checked")).toHaveText(datasource);
  }

  /** Every result's text, top to bottom. */
  resultTexts(): Promise<string[]> {
    return this.results.allInnerTexts();
  }

  async open(result: Locator): Promise<void> {
    await result.getByRole("button", { name: /^Open\b/ }).click();
  }
}
