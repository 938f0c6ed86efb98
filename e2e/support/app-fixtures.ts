/**
 * Fixtures of the app's end-to-end tests: one app stack per worker (service, proxy, `next start`),
 * the test's pages pointed at it, and the app's and the service's last log lines attached to a
 * failed test.
 */
import { randomBytes } from "node:crypto";
import { type Browser, test as base, expect } from "@playwright/test";
import { ChatPage } from "../pages/chat-page.ts";
import { SearchPage } from "../pages/search-page.ts";
import { SignInPage } from "../pages/sign-in-page.ts";
import { type AppStack, type AppStackOptions, startAppStack } from "./app-stack.ts";

interface AppWorkerFixtures {
  /** How the stack is made; a spec changes it with `test.use({ appStackOptions: … })`. */
  appStackOptions: AppStackOptions;
  appStack: AppStack;
}

interface AppTestFixtures {
  signInPage: SignInPage;
  chatPage: ChatPage;
  searchPage: SearchPage;
  attachLogsOnFailure: undefined;
}

/**
 * A user name no other test uses, so each test starts with no conversations: `prefix` and a few
 * random characters (the sign-in takes letters, digits, dots, dashes).
 */
export function uniqueUserName(prefix: string): string {
  return `${prefix}-${randomBytes(3).toString("hex")}`;
}

/**
 * Signs a throwaway user in once, so that the first chat page, which opens the app's embedded
 * database (seconds, more on a busy machine), is not charged to the first test's time limits.
 */
async function warmUp(browser: Browser, stack: AppStack): Promise<void> {
  const context = await browser.newContext({ baseURL: stack.appUrl });
  try {
    const signInPage = new SignInPage(await context.newPage());
    await signInPage.goto();
    await signInPage.userNameInput.fill(uniqueUserName("warm-up"));
    await signInPage.signInButton.click();
    await expect(signInPage.page.getByTestId("user-name")).toBeVisible({ timeout: 120_000 });
  } finally {
    await context.close();
  }
}

export const test = base.extend<AppTestFixtures, AppWorkerFixtures>({
  appStackOptions: [{}, { scope: "worker", option: true }],
  appStack: [
    async ({ browser, appStackOptions }, use) => {
      const stack = await startAppStack(appStackOptions);
      try {
        await warmUp(browser, stack);
        await use(stack);
      } finally {
        await stack.stop();
      }
    },
    // A service start, the samples' ingestion, `next start` and its first page, on a busy machine.
    { scope: "worker", timeout: 300_000 },
  ],
  baseURL: async ({ appStack }, use) => {
    await use(appStack.appUrl);
  },
  signInPage: async ({ page }, use) => {
    await use(new SignInPage(page));
  },
  chatPage: async ({ page }, use) => {
    await use(new ChatPage(page));
  },
  searchPage: async ({ page }, use) => {
    await use(new SearchPage(page));
  },
  attachLogsOnFailure: [
    async ({ appStack }, use, testInfo) => {
      await use(undefined);
      if (testInfo.status !== testInfo.expectedStatus) {
        const logs = appStack.logs();
        await testInfo.attach("app log", { body: logs.app, contentType: "text/plain" });
        await testInfo.attach("service log", { body: logs.service, contentType: "text/plain" });
      }
    },
    { auto: true },
  ],
});

export { expect };
