/** The development sign-in (`/sign-in`): a user name, then the chat. */
import { expect, type Locator, type Page } from "@playwright/test";

export class SignInPage {
  readonly page: Page;
  readonly form: Locator;
  readonly userNameInput: Locator;
  readonly signInButton: Locator;

  constructor(page: Page) {
    this.page = page;
    this.form = page.getByTestId("sign-in-form");
    this.userNameInput = this.form.getByLabel("User name");
    this.signInButton = this.form.getByRole("button", { name: "Sign in" });
  }

  async goto(): Promise<void> {
    await this.page.goto("/sign-in");
    await expect(this.form).toBeVisible();
  }

  /** Signs in as `userName` and waits for the chat, whose header names the user. */
  async signIn(userName: string): Promise<void> {
    await this.goto();
    await this.userNameInput.fill(userName);
    await this.signInButton.click();
    await expect(this.page).toHaveURL(/\/chat(\/|$)/);
    await expect(this.page.getByTestId("user-name")).toHaveText(userName);
  }
}
