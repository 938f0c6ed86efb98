/**
 * Fixtures of the Supabase-mode end-to-end tests: the app fixtures (pages, baseURL, logs on
 * failure) with the app stack in Supabase mode (e2e/support/supabase-stack.ts) instead of the
 * embedded one, and the account pages. A spec sets `accessTokenLifetimeSeconds` to try renewals.
 */
import { randomBytes } from "node:crypto";
import { SignUpPage, SupabaseSignInPage } from "../pages/supabase-account-pages.ts";
import { test as appTest, expect } from "./app-fixtures.ts";
import { type SupabaseAppStack, startSupabaseAppStack } from "./supabase-stack.ts";

/** The password of every account the specs make. */
export const password = "correct horse battery";

/** An address no other test uses, so each account starts with no conversations. */
export const uniqueEmail = (name: string) => `${name}-${randomBytes(3).toString("hex")}@example.com`;

/**
 * The app fixtures (pages, baseURL, logs on failure), with the app stack in Supabase mode instead
 * of the embedded one.
 */
export const test = appTest.extend<
  { supabaseSignInPage: SupabaseSignInPage; signUpPage: SignUpPage },
  { stack: SupabaseAppStack; accessTokenLifetimeSeconds: number }
>({
  accessTokenLifetimeSeconds: [3600, { scope: "worker", option: true }],
  stack: [
    async ({ browser, accessTokenLifetimeSeconds }, use) => {
      const stack = await startSupabaseAppStack({ accessTokenLifetimeSeconds });
      try {
        // The first pages of `next start` are slow on a busy machine: not charged to a test's limits.
        const context = await browser.newContext({ baseURL: stack.app.appUrl });
        const warmUpPage = await context.newPage();
        await new SignUpPage(warmUpPage).signUp(uniqueEmail("warm-up"), password);
        await expect(warmUpPage.getByTestId("user-name")).toBeVisible({ timeout: 120_000 });
        await context.close();
        await use(stack);
      } finally {
        await stack.stop();
      }
    },
    { scope: "worker", timeout: 300_000 },
  ],
  appStack: [
    async ({ stack }, use) => {
      await use(stack.app);
    },
    { scope: "worker" },
  ],
  supabaseSignInPage: async ({ page }, use) => {
    await use(new SupabaseSignInPage(page));
  },
  signUpPage: async ({ page }, use) => {
    await use(new SignUpPage(page));
  },
});

export { expect };
