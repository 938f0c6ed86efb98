/**
 * The reference app in Supabase mode, in Chromium against the production build under `next start`
 * with SUPABASE_URL and SUPABASE_PUBLISHABLE_KEY pointing at a Supabase stand-in (GoTrue, and
 * PostgREST's RPC on a PGlite migrated like a project's database) and a real service with the
 * samples: sign-up and sign-in (password and emailed link) → ask → a streamed cited answer → its
 * citation opens the highlighted PDF page; another account sees none of it; sign-out ends it.
 * Screenshots of the account pages land in test-results/supabase-auth/.
 */
import { resolve } from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext, Page } from "@playwright/test";
import type { MagicLink } from "../sdk/adapters/supabase/testing/supabase-stand-in.ts";
import { messageListSchema, type PdfHighlightReference, type StoredMessage } from "../sdk/core/wire.ts";
import { ChatPage, streamedInOrder } from "./pages/chat-page.ts";
import { expectSignedIn, SupabaseSignInPage } from "./pages/supabase-account-pages.ts";
import { delayedQueueQuestion } from "./support/app-questions.ts";
import { expect, password, test, uniqueEmail } from "./support/supabase-fixtures.ts";
import { legacyJwtSecret, type SupabaseAppStack } from "./support/supabase-stack.ts";

const screenshotFolder = resolve(import.meta.dirname, "../test-results/supabase-auth");

/** The route's answer for a path, called as the browser's authenticated fetch calls it: with a bearer token. */
function getAs(request: APIRequestContext, accessToken: string, path: string) {
  return request.get(path, { headers: { Authorization: `Bearer ${accessToken}` } });
}

async function storedMessages(request: APIRequestContext, accessToken: string, conversationId: string) {
  const response = await getAs(request, accessToken, `/api/cited/conversations/${conversationId}/messages`);
  expect(response.status(), await response.text()).toBe(200);
  return messageListSchema.parse(await response.json()).messages;
}

function firstPdfReference(message: StoredMessage): { number: number; reference: PdfHighlightReference } {
  const answer = message.answer;
  const cited = Object.values(answer?.references ?? {})
    .filter((reference): reference is PdfHighlightReference => reference.kind === "pdf_highlight")
    .map((reference) => ({ number: answer?.numbering[reference.id] ?? 0, reference }))
    .sort((first, second) => first.number - second.number)[0];
  if (!cited) throw new Error("the answer cites no PDF");
  return cited;
}

const rpcCalls = (stack: SupabaseAppStack) =>
  Object.entries(stack.supabase.requests)
    .filter(([route]) => route.startsWith("POST /rest/v1/rpc/"))
    .reduce((total, [, count]) => total + count, 0);

test("a new account asks about the samples, the cited answer streams in, and its citation opens the PDF page with the quote highlighted", async ({
  page,
  stack,
  signUpPage,
  chatPage,
}) => {
  const email = uniqueEmail("ada");
  await signUpPage.signUp(email, password);
  await expectSignedIn(page, email);
  // The browser is told the project's URL and publishable key, in the page and in its RSC payload,
  // and never the project's JWT secret, which the app holds.
  const rendered = [
    await (await page.request.get("/chat")).text(),
    await (await page.request.get("/chat", { headers: { RSC: "1" } })).text(),
  ];
  for (const text of rendered) {
    expect(text).toContain(stack.supabase.publishableKey);
    expect(text).not.toContain(legacyJwtSecret);
  }

  const rpcBefore = rpcCalls(stack);
  stack.app.proxy.paceAnswerLines(300);
  const snapshots = await chatPage.recordAnswerSnapshots();
  let answer: ReturnType<ChatPage["answers"]["nth"]>;
  try {
    answer = await chatPage.ask(delayedQueueQuestion.question);
    await chatPage.expectAnswerDone(answer);
  } finally {
    stack.app.proxy.paceAnswerLines(null);
  }
  await expect(answer).toContainText(delayedQueueQuestion.firstSentence);
  const seen = await snapshots();
  expect(
    streamedInOrder(seen, delayedQueueQuestion.firstSentence, delayedQueueQuestion.secondSentence),
    `the first sentence showed before the second arrived; seen: ${JSON.stringify(seen)}`,
  ).toBe(true);
  await expect(chatPage.conversations.current).toHaveCount(1);
  // The conversation was kept in the project's database, through PostgREST, as this user.
  expect(rpcCalls(stack)).toBeGreaterThan(rpcBefore);

  const conversationId = await chatPage.conversationId();
  const [, stored] = await storedMessages(
    page.request,
    await stack.accessToken(email, password),
    conversationId,
  );
  if (stored === undefined) throw new Error(`no stored answer in conversation ${conversationId}`);
  const { number, reference } = firstPdfReference(stored);
  await chatPage.openCitation(
    answer,
    `Source ${number}: ${reference.title}, p. ${reference.page_label} · page ${reference.page_index + 1} of the file`,
  );
  await chatPage.evidence.expectPdfPage(delayedQueueQuestion.pageNumber);
  await chatPage.evidence.expectHighlightOnQuote(reference.page_index, reference.quote);

  // After a reload, the page reads the conversation back from the project's database.
  await page.reload();
  await expect(chatPage.userMessages).toHaveText([delayedQueueQuestion.question]);
  await expect(chatPage.answers.first()).toContainText(delayedQueueQuestion.firstSentence);
});

test("another account neither lists nor opens the first one's conversation, and the route refuses it to their token", async ({
  browser,
  stack,
  supabaseSignInPage: signInPage,
  chatPage,
}) => {
  const first = uniqueEmail("ben");
  stack.supabase.createUser(first, password);
  await signInPage.signIn(first, password);
  await chatPage.askAndWait(delayedQueueQuestion.question);
  const conversationId = await chatPage.conversationId();
  const firstToken = await stack.accessToken(first, password);
  expect(
    (await getAs(chatPage.page.request, firstToken, `/api/cited/conversations/${conversationId}`)).status(),
  ).toBe(200);
  await chatPage.page.goto("about:blank");

  const second = uniqueEmail("cleo");
  stack.supabase.createUser(second, password);
  const context = await browser.newContext({ baseURL: stack.app.appUrl });
  try {
    const secondPage = await context.newPage();
    const secondChat = new ChatPage(secondPage);
    await new SupabaseSignInPage(secondPage).signIn(second, password);
    await expect(secondChat.conversations.items).toHaveCount(0);
    await expect(secondPage.getByText(delayedQueueQuestion.question)).toHaveCount(0);

    await secondPage.goto(`/chat/${conversationId}`);
    await expect(secondPage.getByRole("heading", { name: "There is nothing at this address" })).toBeVisible();
    await expect(secondChat.answers).toHaveCount(0);

    const secondToken = await stack.accessToken(second, password);
    for (const path of [
      `/api/cited/conversations/${conversationId}`,
      `/api/cited/conversations/${conversationId}/messages`,
    ]) {
      expect((await getAs(secondPage.request, secondToken, path)).status(), path).toBe(404);
    }
    const listed = await getAs(secondPage.request, secondToken, "/api/cited/conversations");
    expect(await listed.json()).toEqual({ conversations: [] });
    // Cookies alone are not how the route is reached: without the bearer token it is 401.
    expect((await secondPage.request.get("/api/cited/conversations")).status()).toBe(401);
  } finally {
    await context.close();
  }
});

/** Makes an account for `email`, asks the sign-in page to email it a link, and returns the link the stand-in kept. */
async function emailedLink(
  stack: SupabaseAppStack,
  signInPage: SupabaseSignInPage,
  email: string,
): Promise<MagicLink> {
  stack.supabase.createUser(email, password);
  await signInPage.goto();
  await signInPage.emailInput.fill(email);
  await signInPage.emailLinkButton.click();
  await expect(signInPage.notice).toContainText(`a sign-in link is on its way to ${email}`);
  const link = stack.supabase.magicLinks.findLast((candidate) => candidate.email === email);
  if (!link) throw new Error(`the stand-in recorded no link for ${email}`);
  return link;
}

test("the emailed sign-in link signs the person in once; a second use says it has expired", async ({
  page,
  browser,
  stack,
  supabaseSignInPage: signInPage,
}) => {
  const email = uniqueEmail("dora");
  const link = await emailedLink(stack, signInPage, email);
  await page.goto(link.url);
  await expectSignedIn(page, email);

  const context = await browser.newContext({ baseURL: stack.app.appUrl });
  try {
    const again = await context.newPage();
    await again.goto(link.url);
    await expect(again).toHaveURL(/\/sign-in\?link=invalid/);
    await expect(again.getByTestId("error-banner")).toContainText("expired or was used already");
  } finally {
    await context.close();
  }
});

test("a link from an email template that points at /auth/confirm with its token hash signs the person in, and never leads off the site", async ({
  page,
  stack,
  supabaseSignInPage: signInPage,
}) => {
  const email = uniqueEmail("ivy");
  const link = await emailedLink(stack, signInPage, email);
  // `next` comes from the link, which anyone can craft: another site is never where it leads, not
  // even through a tab the browser would drop from `/\t/evil.example.com/`.
  const response = await page.request.get(
    `/auth/confirm?token_hash=${link.tokenHash}&type=magiclink&next=/%09/evil.example.com/`,
    { maxRedirects: 0 },
  );
  expect(response.status()).toBe(303);
  expect(response.headers().location).toBe(`${stack.app.appUrl}/chat`);
  // The redirect sets the session's cookies, so no cache may keep it.
  expect(response.headers()["set-cookie"]).toMatch(/sb-/);
  expect(response.headers()["cache-control"]).toBe("private, no-store");
  await page.goto("/chat");
  await expectSignedIn(page, email);
});

test("a wrong password is refused in words, and signing out ends the session", async ({
  page,
  stack,
  supabaseSignInPage: signInPage,
  chatPage,
}) => {
  const email = uniqueEmail("emil");
  stack.supabase.createUser(email, password);
  await signInPage.goto();
  await signInPage.emailInput.fill(email);
  await signInPage.passwordInput.fill("not the password");
  await signInPage.signInButton.click();
  await expect(signInPage.error).toHaveText(/That email and password do not match an account/);
  await expect(signInPage.emailInput).toHaveValue(email);

  await signInPage.signIn(email, password);
  await chatPage.signOutButton.click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.goto("/chat");
  await expect(page).toHaveURL(/\/sign-in$/);
});

async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.help}`);
}

for (const colorScheme of ["light", "dark"] as const) {
  test.describe(`${colorScheme} theme`, () => {
    test.use({ colorScheme });

    test("the sign-in and sign-up pages fit a desktop and a phone, and the sign-in page has no serious accessibility violation", async ({
      page,
      supabaseSignInPage: signInPage,
      signUpPage,
    }) => {
      for (const [device, viewport] of [
        ["desktop", { width: 1280, height: 900 }],
        ["phone", { width: 390, height: 844 }],
      ] as const) {
        await page.setViewportSize(viewport);
        await signInPage.goto();
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
          viewport.width,
        );
        await page.screenshot({
          path: `${screenshotFolder}/sign-in-${device}-${colorScheme}.png`,
          fullPage: true,
        });
        await signUpPage.goto();
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
          viewport.width,
        );
        await page.screenshot({
          path: `${screenshotFolder}/sign-up-${device}-${colorScheme}.png`,
          fullPage: true,
        });
      }
      // With an error showing, as a person who mistyped sees it.
      await signUpPage.emailInput.fill(uniqueEmail("fay"));
      await signUpPage.passwordInput.fill("short");
      await signUpPage.passwordInput.evaluate((input) => input.removeAttribute("minlength"));
      await signUpPage.createButton.click();
      await expect(signUpPage.error).toContainText("at least 6 characters");
      await page.screenshot({
        path: `${screenshotFolder}/sign-up-error-phone-${colorScheme}.png`,
        fullPage: true,
      });

      await signInPage.goto();
      expect(await seriousViolations(page)).toEqual([]);
      // With the notice an emailed link leaves, on a phone.
      await signInPage.emailInput.fill(uniqueEmail("gus"));
      await signInPage.emailLinkButton.click();
      await expect(signInPage.notice).toBeVisible();
      expect(await seriousViolations(page), "with the notice").toEqual([]);
      await page.screenshot({
        path: `${screenshotFolder}/sign-in-link-sent-phone-${colorScheme}.png`,
        fullPage: true,
      });
    });
  });
}
