/**
 * A PDF page that cannot be loaded stops: the evidence panel says why and what to do, and the
 * browser asks the app's route at most the documented number of times (one retry for a failure
 * that may pass; none for one that will not; a Try again that waits longer after each failure).
 * The failures are made in the browser's network layer, on the app's own PDF route.
 */
import type { Page, Route } from "@playwright/test";
import { expect, test, uniqueUserName } from "./support/app-fixtures.ts";
import { delayedQueueQuestion } from "./support/app-questions.ts";
import { screenshotsAtBothWidths } from "./support/screenshots.ts";
import { seriousViolations } from "./support/serious-violations.ts";

const pdfRoute = "**/api/cited/pdf/**";

function problem(status: number, code: string, detail: string) {
  return {
    status,
    contentType: "application/problem+json",
    headers: { "X-Request-ID": `req_e2e${status}` },
    body: JSON.stringify({
      type: "about:blank",
      title: code,
      status,
      code,
      detail,
      request_id: `req_e2e${status}`,
    }),
  };
}

interface Failure {
  name: string;
  respond(route: Route): Promise<void>;
  /** What the panel says. */
  says: RegExp;
  /** Requests one opening of the citation makes: the first, and the retry of a failure that may pass. */
  requests: number;
  /** Whether the panel offers to try again. */
  retry: boolean;
}

const failures: Failure[] = [
  {
    name: "a removed document (404)",
    respond: (route) =>
      route.fulfill(problem(404, "not_found", "The cited document is no longer available.")),
    says: /no longer available/i,
    requests: 1,
    retry: false,
  },
  {
    name: "a server error (500)",
    respond: (route) => route.fulfill(problem(500, "internal", "Something went wrong.")),
    says: /could not be loaded/i,
    requests: 2,
    retry: true,
  },
  {
    name: "a service outage (503)",
    respond: (route) => route.fulfill(problem(503, "unavailable", "The service is unavailable.")),
    says: /could not be loaded/i,
    requests: 2,
    retry: true,
  },
  {
    name: "a reset connection",
    respond: (route) => route.abort("connectionreset"),
    says: /could not reach/i,
    requests: 2,
    retry: true,
  },
];

async function openFirstCitation(page: Page) {
  const answer = page.getByTestId("message-assistant").first();
  await answer.getByTestId("cited-citation").first().click();
  await expect(page.getByTestId("evidence-panel")).toBeVisible();
}

/** Counts the PDF requests `respond` answers from now on. */
async function failPdfRequests(page: Page, respond: (route: Route) => Promise<void>) {
  const counted = { requests: 0 };
  await page.unrouteAll({ behavior: "ignoreErrors" });
  await page.route(pdfRoute, async (route) => {
    counted.requests += 1;
    await respond(route);
  });
  return counted;
}

test("a PDF page that fails to load says why, offers a retry only where one can help, and stops asking", async ({
  page,
  signInPage,
  chatPage,
}) => {
  test.setTimeout(120_000);
  await signInPage.signIn(uniqueUserName("evidence"));
  await chatPage.askAndWait(delayedQueueQuestion.question);

  for (const failure of failures) {
    await test.step(failure.name, async () => {
      const counted = await failPdfRequests(page, failure.respond);
      // A reload starts with no slice in memory, as a person who comes back later would.
      await page.reload();
      await openFirstCitation(page);
      const alert = chatPage.evidence.root.getByRole("alert");
      await expect(alert).toContainText(failure.says);
      await expect(chatPage.evidence.root.getByTestId("cited-pdf-loading")).toHaveCount(0);
      // Long enough for a loop to show itself: the first report counted 595 requests in 20 s.
      await page.waitForTimeout(3000);
      expect(counted.requests, `${failure.name}: requests in 3 s after the failure showed`).toBe(
        failure.requests,
      );
      await expect(chatPage.evidence.root.getByRole("button", { name: /try again/i })).toHaveCount(
        failure.retry ? 1 : 0,
      );
    });
  }

  await test.step("Try again waits longer after each failure, then loads the page once it can", async () => {
    const counted = await failPdfRequests(page, (route) =>
      route.fulfill(problem(503, "unavailable", "The service is unavailable.")),
    );
    await page.reload();
    await openFirstCitation(page);
    const tryAgain = chatPage.evidence.root.getByRole("button", { name: /try again/i });
    await expect(tryAgain).toBeVisible();
    expect(counted.requests).toBe(2);
    expect(await seriousViolations(page), "the failed page's panel").toEqual([]);
    await screenshotsAtBothWidths(page, "evidence-failed");
    await expect(tryAgain).toBeEnabled({ timeout: 5000 });
    await tryAgain.click();
    // The button went with the failure; focus stayed in the evidence.
    await expect(chatPage.evidence.pdf).toBeFocused();
    await expect(tryAgain).toBeDisabled();
    await expect(tryAgain).toHaveText(/in \d+ s/);
    expect(counted.requests).toBe(4);

    await page.unrouteAll({ behavior: "ignoreErrors" });
    await expect(tryAgain).toBeEnabled({ timeout: 10_000 });
    await tryAgain.click();
    await chatPage.evidence.expectPdfPage(delayedQueueQuestion.pageNumber);
  });

  await test.step("a route that never answers ends in a timeout, once", async () => {
    // The request is never answered; the browser gives up on it when the panel's timeout ends.
    const counted = await failPdfRequests(page, async () => {});
    await page.reload();
    await openFirstCitation(page);
    await expect(chatPage.evidence.root.getByRole("alert")).toContainText(/took too long/i, {
      timeout: 30_000,
    });
    expect(counted.requests).toBe(1);
    await page.unrouteAll({ behavior: "ignoreErrors" });
  });
});
