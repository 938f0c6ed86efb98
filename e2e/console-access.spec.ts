/**
 * Who reaches the console, and what leaves the server: a signed-in user who is not an operator gets
 * 404 from every console page and every console route (and the service hears nothing of it); the
 * built client bundle and what the browser receives hold no admin token; axe finds no serious
 * violation on the console's pages, light or dark.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { parseEnv } from "node:util";
import type { Response } from "@playwright/test";
import { createAdminClient } from "../sdk/admin/index.ts";
import { expect, test, uniqueUserName } from "./support/app-fixtures.ts";
import { consoleStackOptions, operatorName } from "./support/console-stack.ts";
import { screenshotsAtBothWidths } from "./support/screenshots.ts";
import { seriousViolations } from "./support/serious-violations.ts";

test.use({ appStackOptions: consoleStackOptions });

const repositoryRoot = resolve(import.meta.dirname, "..");
const consoleFolder = join(repositoryRoot, "app/(console)/console");

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/** `app/(console)/console/api/keys/[key]/route.ts` → `/console/api/keys/[key]`. */
function urlPathOf(file: string): string {
  const folder = relative(join(repositoryRoot, "app/(console)"), file).split("/").slice(0, -1).join("/");
  return `/${folder}`;
}

/** Every console page and every console route with each method it exports, read from the app's files. */
function consoleEndpoints(): { pages: string[]; routes: Array<{ method: string; path: string }> } {
  const files = filesUnder(consoleFolder);
  const pages = files.filter((file) => file.endsWith("/page.tsx")).map(urlPathOf);
  const routes = files
    .filter((file) => file.endsWith("/route.ts"))
    .flatMap((file) =>
      [
        ...readFileSync(file, "utf8").matchAll(
          /export (?:const|async function|function) (GET|POST|PATCH|PUT|DELETE)\b/g,
        ),
      ].map((match) => ({ method: match[1]!, path: urlPathOf(file) })),
    );
  return { pages, routes };
}

test("a signed-in user who is not an operator gets 404 from every console page and route, and the service hears nothing", async ({
  page,
  appStack,
  signInPage,
}) => {
  const admin = createAdminClient({ baseUrl: appStack.serviceUrl, adminToken: appStack.adminToken });
  const [key] = await admin.listKeys(appStack.assistantId);
  const document = appStack.documents[0]!;
  const fill = (path: string) =>
    path
      .replace("[assistant]", appStack.assistantId)
      .replace("[document]", document.id)
      .replace("[key]", key!.id)
      .replace("/(chat)", "")
      .replace("/[[...id]]", "")
      .replace("[...path]", "conversations");
  const { pages, routes } = consoleEndpoints();
  expect(pages.length).toBeGreaterThanOrEqual(4);
  expect(routes.length).toBeGreaterThanOrEqual(8);

  await signInPage.signIn(uniqueUserName("nadia"));
  await expect(page.getByTestId("console-link")).toHaveCount(0);
  const mark = appStack.proxy.mark();
  for (const path of pages.map(fill)) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByTestId("console-banner")).toHaveCount(0);
  }
  for (const route of routes) {
    const path = fill(route.path);
    const response = await page.request.fetch(path, {
      method: route.method,
      headers: { Origin: appStack.appUrl, "Content-Type": "application/json" },
      ...(route.method === "GET" || route.method === "DELETE"
        ? {}
        : { data: { name: "taken over", scopes: ["ask", "rag"] } }),
    });
    expect(response.status(), `${route.method} ${path}`).toBe(404);
  }
  const reachedService = appStack.proxy
    .requestsSince(mark)
    .filter((request) => request.path.startsWith("/admin/") || request.path.startsWith("/external/"));
  expect(reachedService).toEqual([]);
  // Nothing changed: the key still works, the document is still there.
  expect(
    (await admin.listKeys(appStack.assistantId)).find((candidate) => candidate.id === key!.id)?.revoked_at,
  ).toBeNull();
  expect((await admin.listDocuments(appStack.assistantId)).map((listed) => listed.id)).toContain(document.id);
});

test("an operator sees the console link and the operator's banner", async ({ page, signInPage }) => {
  await signInPage.signIn(operatorName);
  await page.getByTestId("console-link").click();
  await expect(page).toHaveURL(/\/console$/);
  await expect(page.getByTestId("console-banner")).toContainText("Operator console");
  // On a phone it takes a line or two, not a paragraph.
  await page.setViewportSize({ width: 390, height: 844 });
  expect((await page.getByTestId("console-banner").boundingBox())?.height).toBeLessThanOrEqual(60);
  await page.setViewportSize({ width: 1280, height: 720 });
  await expect(page.getByTestId("console-everyone-note")).toHaveCount(0);
  await expect(page.getByTestId("assistant-row")).toHaveCount(1);
  await screenshotsAtBothWidths(page, "console-assistants");
});

test("an operator's change from another origin is refused with 403 before the service hears of it", async ({
  page,
  appStack,
  signInPage,
}) => {
  await signInPage.signIn(operatorName);
  const mark = appStack.proxy.mark();
  const response = await page.request.post("/console/api/assistants", {
    headers: { Origin: "https://elsewhere.example", "Content-Type": "application/json" },
    data: { name: "forged" },
  });
  expect(response.status()).toBe(403);
  expect(appStack.proxy.requestsSince(mark)).toEqual([]);
});

test("when the service is down, a console page says what to check and offers to try again", async ({
  page,
  appStack,
  signInPage,
}) => {
  await signInPage.signIn(operatorName);
  appStack.proxy.simulateOutage(true);
  try {
    await page.goto("/console");
    const error = page.getByTestId("console-error");
    await expect(error).toContainText("CITED_ADMIN_URL");
    await expect(error.getByRole("button", { name: "Try again" })).toBeVisible();
    await expect(page.getByTestId("console-banner")).toBeVisible();
  } finally {
    appStack.proxy.simulateOutage(false);
  }
  await page.reload();
  await expect(page.getByTestId("assistant-row").first()).toBeVisible();
});

/** The admin tokens the build could have read: `.env.local` (what `npm run dev` writes) and its environment. */
function adminTokenSettings(): string[] {
  const envFile = join(repositoryRoot, ".env.local");
  const fromFile = existsSync(envFile) ? parseEnv(readFileSync(envFile, "utf8")) : {};
  return [fromFile.CITED_ADMIN_TOKEN, process.env.CITED_ADMIN_TOKEN].filter(
    (value): value is string => value !== undefined && value !== "",
  );
}

test("the built client bundle holds no admin token", async ({ appStack }) => {
  const staticFolder = join(repositoryRoot, ".next/static");
  expect(existsSync(staticFolder), "run `next build` before the end-to-end tests").toBe(true);
  const secrets = [appStack.adminToken, ...adminTokenSettings()];
  const files = filesUnder(staticFolder);
  expect(files.length).toBeGreaterThan(0);
  const found = files.flatMap((file) => {
    const text = readFileSync(file, "latin1");
    return secrets.filter((secret) => text.includes(secret)).map(() => relative(repositoryRoot, file));
  });
  expect(found).toEqual([]);
});

test("nothing the browser receives while an operator uses the console holds the admin token", async ({
  page,
  appStack,
  signInPage,
}) => {
  const leaks: string[] = [];
  const reading: Array<Promise<void>> = [];
  const read = (response: Response) => {
    reading.push(
      (async () => {
        const headers = JSON.stringify(await response.allHeaders());
        const body = await response.text().catch(() => "");
        if ((headers + body).includes(appStack.adminToken)) leaks.push(response.url());
      })(),
    );
  };
  page.on("response", read);
  await signInPage.signIn(operatorName);
  for (const path of ["", "/keys", "/share"]) {
    await page.goto(`/console/assistants/${appStack.assistantId}${path}`);
    await expect(page.getByTestId("assistant-name")).toBeVisible();
  }
  await page.goto("/console");
  await expect(page.getByTestId("assistant-row").first()).toBeVisible();
  // A response arriving after this (a long-poll) would be read after the page closes, failing the next test.
  page.off("response", read);
  await Promise.all(reading);
  expect(reading.length).toBeGreaterThan(5);
  expect(leaks).toEqual([]);
});

for (const colorScheme of ["light", "dark"] as const) {
  test(`the console's pages have no serious accessibility violation (${colorScheme})`, async ({
    page,
    appStack,
    signInPage,
  }) => {
    await page.emulateMedia({ colorScheme });
    await signInPage.signIn(operatorName);
    await page.goto("/console");
    await expect(page.getByTestId("assistant-row").first()).toBeVisible();
    expect(await seriousViolations(page), "assistants").toEqual([]);
    await page.getByRole("button", { name: "Delete Cited e2e" }).click();
    await expect(page.getByTestId("confirm-dialog")).toBeVisible();
    expect(await seriousViolations(page), "the delete confirmation").toEqual([]);
    await page.getByRole("button", { name: "Cancel" }).click();
    for (const [name, path] of [
      ["sources", ""],
      ["keys", "/keys"],
      ["share", "/share"],
      ["try", "/try"],
      ["try search", "/try/search?q=upload"],
    ] as const) {
      await page.goto(`/console/assistants/${appStack.assistantId}${path}`);
      await expect(page.getByTestId("assistant-name")).toBeVisible();
      expect(await seriousViolations(page), name).toEqual([]);
    }
  });
}
