/**
 * The app in Supabase mode with access tokens that live 100 seconds (e2e/app-supabase.spec.ts has
 * the rest): the browser's Supabase client renews the token before it expires, the route accepts
 * the renewed one, and pages keep the person signed in. Its own file: the token lifetime is a
 * setting of the worker's stack.
 */
import { expectSignedIn } from "./pages/supabase-account-pages.ts";
import { delayedQueueQuestion } from "./support/app-questions.ts";
import { expect, password, test, uniqueEmail } from "./support/supabase-fixtures.ts";

test.use({ accessTokenLifetimeSeconds: 100 });

test("the browser renews the access token before it expires, and after the first one has expired the person still asks and reloads signed in", async ({
  page,
  stack,
  supabaseSignInPage: signInPage,
  chatPage,
}) => {
  test.setTimeout(240_000);
  const refreshGrants = () => stack.supabase.requests["POST /auth/v1/token?grant_type=refresh_token"] ?? 0;
  const email = uniqueEmail("hugo");
  stack.supabase.createUser(email, password);
  await signInPage.signIn(email, password);
  const signedInAt = Date.now();
  const grantsBefore = refreshGrants();

  // supabase-js renews a token in its last 90 s, checking every 30 s: here 10 to 40 s after sign-in.
  await expect.poll(refreshGrants, { timeout: 60_000 }).toBeGreaterThan(grantsBefore);
  // Past the first token's expiry, so what the route accepts now can only be a renewed token.
  await page.waitForTimeout(Math.max(0, signedInAt + 105_000 - Date.now()));

  const answer = await chatPage.askAndWait(delayedQueueQuestion.question);
  await expect(answer).toContainText(delayedQueueQuestion.firstSentence);
  await page.reload();
  await expectSignedIn(page, email);
  await expect(chatPage.userMessages).toHaveText([delayedQueueQuestion.question]);
});
