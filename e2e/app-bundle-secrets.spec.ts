/**
 * The service's API key and base URL stay on the server: the built client bundle (`.next/static`,
 * made by `next build` before the end-to-end tests run) holds neither the values this run uses nor
 * those the build could have read (`.env.local`, the build's environment), nor anything shaped like
 * an API key; and nothing the browser receives while a user chats and searches holds them either.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseEnv } from "node:util";
import type { Response } from "@playwright/test";
import { expect, test, uniqueUserName } from "./support/app-fixtures.ts";
import { delayedQueueQuestion, searchQuery } from "./support/app-questions.ts";

const repositoryRoot = resolve(import.meta.dirname, "..");
const staticFolder = join(repositoryRoot, ".next/static");

/** How a service API key looks (service/store/keys.ts), whichever key it is. */
const apiKeyShape = /cka_live_[A-Za-z0-9]{20}_[A-Za-z0-9_-]{43}/;

const secretSettings = ["CITED_API_KEY", "CITED_BASE_URL", "CITED_SESSION_SECRET"] as const;

interface Secret {
  name: string;
  value: string;
}

/** A URL's value and its `host:port` alone (code can join a scheme to it), else the value itself. */
function forms(name: string, value: string): Secret[] {
  if (!/^https?:\/\//.test(value)) return [{ name, value }];
  const url = new URL(value);
  return [
    { name, value: value.replace(/\/+$/, "") },
    { name: `${name} (host)`, value: url.host },
  ];
}

/** The settings the build could have read: `.env.local` (what `npm run dev` writes) and its environment. */
function buildTimeSecrets(): Secret[] {
  const secrets: Secret[] = [];
  const envFile = join(repositoryRoot, ".env.local");
  const fromFile = existsSync(envFile) ? parseEnv(readFileSync(envFile, "utf8")) : {};
  for (const setting of secretSettings) {
    const candidates = [
      { source: ".env.local", value: fromFile[setting] },
      { source: "the environment", value: process.env[setting] },
    ];
    for (const { source, value } of candidates) {
      if (value) secrets.push(...forms(`${setting} from ${source}`, value));
    }
  }
  return secrets;
}

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

function leaks(text: string, secrets: readonly Secret[]): string[] {
  const found = secrets.filter((secret) => text.includes(secret.value)).map((secret) => secret.name);
  return apiKeyShape.test(text) ? [...found, "a string shaped like an API key"] : found;
}

test("the built client bundle holds neither the API key nor the service's base URL", async ({ appStack }) => {
  expect(existsSync(staticFolder), "run `next build` before the end-to-end tests").toBe(true);
  const secrets = [
    ...buildTimeSecrets(),
    ...forms("the API key of this run", appStack.apiKey),
    ...forms("the service's URL", appStack.serviceUrl),
    ...forms("the base URL the app calls", appStack.baseUrl),
    ...forms("the session secret of this run", appStack.sessionSecret),
  ];
  const files = filesUnder(staticFolder);
  expect(files.length).toBeGreaterThan(0);
  const found = files.flatMap((file) =>
    leaks(readFileSync(file, "latin1"), secrets).map((secret) => `${file}: ${secret}`),
  );
  expect(found).toEqual([]);
});

test("nothing the browser receives while a user chats and searches holds the API key or the service's URL", async ({
  page,
  appStack,
  signInPage,
  chatPage,
  searchPage,
}) => {
  const secrets = [
    ...forms("the API key", appStack.apiKey),
    ...forms("the service's URL", appStack.serviceUrl),
    ...forms("the base URL the app calls", appStack.baseUrl),
    ...forms("the session secret", appStack.sessionSecret),
  ];
  const found: string[] = [];
  const reading: Array<Promise<void>> = [];
  const read = (response: Response) => {
    reading.push(
      (async () => {
        const headers = JSON.stringify(await response.allHeaders());
        const type = response.headers()["content-type"] ?? "";
        const body = type.startsWith("application/pdf") ? "" : await response.text().catch(() => "");
        for (const secret of leaks(headers + body, secrets)) found.push(`${response.url()}: ${secret}`);
      })(),
    );
  };
  page.on("response", read);

  await signInPage.signIn(uniqueUserName("erin"));
  const answer = await chatPage.askAndWait(delayedQueueQuestion.question);
  await chatPage.citations(answer).first().click();
  await chatPage.evidence.expectPdfPage(delayedQueueQuestion.pageNumber);
  await searchPage.goto();
  await searchPage.search(searchQuery.query);
  await page.waitForLoadState("networkidle");
  // A response arriving after this would be read after the page closes, failing the next test.
  page.off("response", read);
  await Promise.all(reading);
  expect(reading.length).toBeGreaterThan(10);
  expect(found).toEqual([]);
});
