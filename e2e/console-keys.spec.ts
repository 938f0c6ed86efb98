/**
 * The console's keys and share pages against `next start` and a real service: a key made in the
 * console is shown once and works against the public API over HTTP; revoked in the console, its
 * next request is 401. The share page hands over the assistant id, the base URL and an env block.
 */
import { problemDetailsSchema, ragResponseSchema } from "../sdk/core/wire.ts";
import { ConsoleKeysPage } from "./pages/console-keys-page.ts";
import { expect, test } from "./support/app-fixtures.ts";
import { consoleStackOptions, operatorName } from "./support/console-stack.ts";
import { screenshotsAtBothWidths } from "./support/screenshots.ts";

test.use({ appStackOptions: consoleStackOptions });

/** The public rag endpoint, called as a host's server (or curl) would. */
function rag(serviceUrl: string, assistantId: string, key: string): Promise<Response> {
  return fetch(`${serviceUrl}/external/v1/assistants/${assistantId}/rag`, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${key}`,
      "X-App-Code": "selfserve",
      "Content-Type": "application/json",
    },
    body: JSON.stringify({ query: "delayed upload queue", max_results: 3, id_user: "curl-check" }),
  });
}

test("a key created in the console answers the public API over HTTP until it is revoked in the console, then the next request is 401", async ({
  page,
  appStack,
  signInPage,
}) => {
  await signInPage.signIn(operatorName);
  const keys = new ConsoleKeysPage(page);
  await keys.goto(appStack.assistantId);

  const key = await keys.create("search widget", ["rag"]);
  expect(key).toMatch(/^cka_live_/);
  await expect(keys.createdKey).toContainText("only time it is shown");
  await expect(keys.createdKey.getByRole("button", { name: "Copy the new key" })).toBeVisible();
  await expect(keys.row("search widget")).toContainText("rag");
  await expect(keys.row("search widget").getByTestId("key-last-used")).toHaveText("never used");
  await screenshotsAtBothWidths(page, "console-keys");

  const answered = await rag(appStack.serviceUrl, appStack.assistantId, key);
  expect(answered.status, await answered.clone().text()).toBe(200);
  expect(ragResponseSchema.parse(await answered.json()).results.length).toBeGreaterThan(0);

  await page.reload();
  await expect(keys.createdKey).toHaveCount(0);
  await expect(keys.row("search widget").getByTestId("key-last-used")).toContainText("last used");

  await keys.revoke("search widget");
  const refused = await rag(appStack.serviceUrl, appStack.assistantId, key);
  expect(refused.status).toBe(401);
  expect(problemDetailsSchema.parse(await refused.json()).code).toBe("invalid_key");
});

test("the share page gives the assistant id, the base URL, an env block and the SDK route to paste", async ({
  page,
  appStack,
  signInPage,
}) => {
  await signInPage.signIn(operatorName);
  await page.goto(`/console/assistants/${appStack.assistantId}/share`);
  await expect(page.getByTestId("share-assistant-id")).toHaveText(appStack.assistantId);
  await expect(page.getByTestId("share-base-url")).toHaveText(appStack.serviceUrl);
  const env = page.getByTestId("share-env");
  await expect(env).toContainText(`CITED_ASSISTANT_ID=${appStack.assistantId}`);
  await expect(env).toContainText(`CITED_BASE_URL=${appStack.serviceUrl}`);
  for (const document of appStack.documents) {
    await expect(env).toContainText(`=${document.id_datasource}`);
  }
  await expect(page.getByTestId("share-sdk")).toContainText("createServiceHandler");
  await screenshotsAtBothWidths(page, "console-share");
});

test("an operator creates, renames and deletes an assistant, and the confirmation says what is lost", async ({
  page,
  signInPage,
}) => {
  await signInPage.signIn(operatorName);
  await page.goto("/console");
  await page.getByTestId("create-assistant").getByLabel("New assistant").fill("Scratch");
  await page.getByRole("button", { name: "Create assistant" }).click();
  const created = page.getByTestId("assistant-row").filter({ hasText: "Scratch" });
  await expect(created).toBeVisible();
  // While it is renamed, its name is an input's value, not text: the row is found by its id.
  const row = page.locator(`[data-assistant-id="${await created.getAttribute("data-assistant-id")}"]`);

  await row.getByRole("button", { name: "Rename Scratch" }).click();
  const input = row.getByLabel("Assistant name");
  await input.fill("Scratch renamed");
  await input.press("Enter");
  await expect(row.getByRole("link", { name: "Scratch renamed" })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("link", { name: "Scratch renamed" })).toBeVisible();

  await page.getByRole("button", { name: "Delete Scratch renamed" }).click();
  const dialog = page.getByTestId("confirm-dialog");
  await expect(dialog).toContainText("documents, their passages");
  await expect(dialog).toContainText("every API key");
  await dialog.getByRole("button", { name: "Delete assistant" }).click();
  await expect(page.getByRole("link", { name: "Scratch renamed" })).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole("link", { name: "Scratch renamed" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Cited e2e" })).toBeVisible();
});
