/** The Supabase mode's sign-in (`/sign-in`: password or emailed link) and sign-up (`/sign-up`) pages. */
import { expect, type Locator, type Page } from "@playwright/test";

export class SupabaseSignInPage {
  readonly page: Page;
  readonly form: Locator;
  readonly emailInput: Locator;
  readonly passwordInput: Locator;
  readonly signInButton: Locator;
  readonly emailLinkButton: Locator;
  readonly error: Locator;
  readonly notice: Locator;

  constructor(page: Page) {
    this.page = page;
    this.form = page.getByTestId("sign-in-form");
    this.emailInput = this.form.getByLabel("Email");
    this.passwordInput = this.form.getByLabel("Password");
    this.signInButton = this.form.getByRole("button", { name: "Sign in", exact: true });
    this.emailLinkButton = this.form.getByRole("button", { name: "Email me a sign-in link" });
    this.error = this.form.getByRole("alert");
    this.notice = this.form.getByTestId("account-notice");
  }

  async goto(): Promise<void> {
    await this.page.goto("/sign-in");
    await expect(this.form).toBeVisible();
  }

  /** Signs in with a password and waits for the chat, whose header names the account's email. */
  async signIn(email: string, password: string): Promise<void> {
    await this.goto();
    await this.emailInput.fill(email);
    await this.passwordInput.fill(password);
    await this.signInButton.click();
    await expectSignedIn(this.page, email);
  }
}

export class SignUpPage {
  readonly page: Page;
  readonly form: Locator;
  readonly emailInput: Locator;
  readonly passwordInput: Locator;
  readonly createButton: Locator;
  readonly error: Locator;

  constructor(page: Page) {
    this.page = page;
    this.form = page.getByTestId("sign-up-form");
    this.emailInput = this.form.getByLabel("Email");
    this.passwordInput = this.form.getByLabel("Password");
    this.createButton = this.form.getByRole("button", { name: "Create account" });
    this.error = this.form.getByRole("alert");
  }

  async goto(): Promise<void> {
    await this.page.goto("/sign-up");
    await expect(this.form).toBeVisible();
  }

  async signUp(email: string, password: string): Promise<void> {
    await this.goto();
    await this.emailInput.fill(email);
    await this.passwordInput.fill(password);
    await this.createButton.click();
  }
}

export async function expectSignedIn(page: Page, email: string): Promise<void> {
  await expect(page).toHaveURL(/\/chat(\/|$)/);
  await expect(page.getByTestId("user-name")).toHaveText(email);
}
