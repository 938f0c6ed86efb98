/** The console's assistants page (`/console`): the operator's banner, the list, create, rename, delete. */
import { expect, type Locator, type Page } from "@playwright/test";

export class ConsoleAssistantsPage {
  readonly page: Page;
  readonly banner: Locator;
  readonly everyoneNote: Locator;
  readonly rows: Locator;
  readonly nameInput: Locator;
  readonly createButton: Locator;

  constructor(page: Page) {
    this.page = page;
    this.banner = page.getByTestId("console-banner");
    this.everyoneNote = page.getByTestId("console-everyone-note");
    this.rows = page.getByTestId("assistant-row");
    this.nameInput = page.getByTestId("create-assistant").getByLabel("New assistant");
    this.createButton = page.getByRole("button", { name: "Create assistant" });
  }

  async goto(): Promise<void> {
    await this.page.goto("/console");
    await expect(this.banner).toBeVisible();
  }

  row(name: string): Locator {
    return this.rows.filter({ has: this.page.getByRole("link", { name, exact: true }) });
  }

  async open(name: string): Promise<void> {
    await this.row(name).getByRole("link", { name, exact: true }).click();
    await expect(this.page.getByTestId("assistant-name")).toHaveText(name);
  }

  async create(name: string): Promise<void> {
    await this.nameInput.fill(name);
    await this.createButton.click();
    await expect(this.row(name)).toBeVisible();
  }
}
