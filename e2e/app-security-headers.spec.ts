/**
 * The app and the service send security headers, and the app works under its Content-Security-Policy:
 * a person signs in, asks, and opens the cited PDF page with nothing the policy refuses.
 */
import { expect, test, uniqueUserName } from "./support/app-fixtures.ts";
import { delayedQueueQuestion } from "./support/app-questions.ts";

const everyResponse = {
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "strict-origin-when-cross-origin",
};

test("pages, the app's route and the service send security headers, and the chat runs under the policy with no violation", async ({
  page,
  request,
  appStack,
  signInPage,
  chatPage,
}) => {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      console.error(
        `Content Security Policy violation: ${event.violatedDirective} ${event.blockedURI} at ${event.sourceFile}:${event.lineNumber} on ${location.pathname}`,
      );
    });
  });

  const signIn = await page.goto("/sign-in");
  const pageHeaders = signIn!.headers();
  const policy = pageHeaders["content-security-policy"] ?? "";
  expect(policy).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{24}' 'strict-dynamic'/);
  expect(policy).toContain("frame-ancestors 'none'");
  expect(policy).toContain("object-src 'none'");
  expect(policy).not.toContain("unsafe-eval");
  expect(pageHeaders).toMatchObject(everyResponse);
  expect(pageHeaders["permissions-policy"]).toContain("camera=()");
  // A fresh nonce for each page.
  const again = await request.get("/sign-in");
  expect(again.headers()["content-security-policy"]).not.toBe(policy);

  const route = await request.get("/api/cited/conversations");
  expect(route.status()).toBe(401);
  expect(route.headers()).toMatchObject(everyResponse);

  const service = await request.get(`${appStack.serviceUrl}/healthz`);
  expect(service.headers()).toMatchObject({
    "content-security-policy":
      "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
  });

  await signInPage.signIn(uniqueUserName("policy"));
  const answer = await chatPage.askAndWait(delayedQueueQuestion.question);
  await chatPage.citations(answer).first().click();
  await chatPage.evidence.expectPdfPage(delayedQueueQuestion.pageNumber);
  await page.goto("/search");
  await expect(page.getByRole("searchbox").or(page.getByRole("textbox")).first()).toBeVisible();
  expect(violations).toEqual([]);
});
