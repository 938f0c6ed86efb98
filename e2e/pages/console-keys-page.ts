/** An assistant's keys in the console: create one (shown once), the list, revoke. */
import { expect, type Locator, type Page } from "@playwright/test";

export class ConsoleKeysPage {
  readonly page: Page;
  readonly form: Locator;
  readonly nameInput: Locator;
  readonly createButton: Locator;
  readonly createdKey: Locator;
  readonly createdKeyValue: Locator;
  readonly rows: Locator;

  constructor(page: Page) {
    this.page = page;
    this.form = page.getByTestId("create-key");
    this.nameInput = this.form.getByLabel(/^Name/);
    this.createButton = this.form.getByRole("button", { name: "Create key" });
    this.createdKey = page.getByTestId("created-key");
    this.createdKeyValue = page.getByTestId("created-key-value");
    this.rows = page.getByTestId("key-row");
  }

  async goto(assistantId: string): Promise<void> {
    await this.page.goto(`/console/assistants/${assistantId}/keys`);
    await expect(this.form).toBeVisible();
  }

  scope(scope: "ask" | "rag"): Locator {
    return this.form.getByRole("checkbox", { name: new RegExp(`^${scope}:`) });
  }

  row(name: string): Locator {
    return this.rows.filter({ hasText: name });
  }

  /** Creates a key with exactly `scopes` and returns it as the page shows it, once. */
  async create(name: string, scopes: ReadonlyArray<"ask" | "rag">): Promise<string> {
    await this.nameInput.fill(name);
    for (const scope of ["ask", "rag"] as const) await this.scope(scope).setChecked(scopes.includes(scope));
    await this.createButton.click();
    await expect(this.createdKey).toBeVisible();
    await expect(this.row(name)).toBeVisible();
    return (await this.createdKeyValue.textContent())?.trim() ?? "";
  }

  async revoke(name: string): Promise<void> {
    await this.row(name)
      .getByRole("button", { name: `Revoke ${name}` })
      .click();
    await this.page.getByTestId("confirm-dialog").getByRole("button", { name: "Revoke key" }).click();
    await expect(this.row(name)).toHaveAttribute("data-state", "revoked");
  }
}
