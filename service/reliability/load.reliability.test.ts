/**
 * rag and ask at rising concurrency, each step for a fixed time, while the service ingests another
 * PDF: zero 5xx, zero malformed stream lines, every ask stream complete; p50/p99 per step. Then the
 * logs of the whole run are searched for every secret the run handled.
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reduceAnswerText } from "../../sdk/core/index.ts";
import { publicPaths } from "../../sdk/core/service-paths.ts";
import { uploadFile } from "../cli/admin-client.ts";
import {
  evalPdfFolder,
  extractPdfPages,
  type PublicApiFixture,
  startPublicApiFixture,
} from "../testing/public-api-fixture.ts";
import { budget, fullRun } from "./budget.ts";
import { violations } from "./response-checks.ts";
import { count, createTally, statusClass, writeTally } from "./tally.ts";

const tally = createTally();
let fixture: PublicApiFixture;
let key: string;
const questions = readFileSync(
  resolve(import.meta.dirname, "../../../shared/eval/qa-debian-docs.jsonl"),
  "utf8",
)
  .trim()
  .split("\n")
  .map((line) => (JSON.parse(line) as { question: string }).question);

beforeAll(async () => {
  const gnuplot = join(evalPdfFolder, "gnuplot.pdf");
  fixture = await startPublicApiFixture({
    process: "spawned",
    files: fullRun
      ? ["debian-reference.en.pdf", "developers-reference.pdf", "gnuplot.pdf"].map((name) => ({
          path: join(evalPdfFolder, name),
        }))
      : [{ path: extractPdfPages(gnuplot, "1-40", "gnuplot-1-40.pdf") }],
    env: { CKA_LOG: "info", CKA_RATE_LIMIT_PER_MINUTE: "100000000" },
  });
  key = (await fixture.createKey(["ask", "rag"])).key;
}, 300_000);

afterAll(async () => {
  writeTally("load", tally);
  await fixture?.stop();
});

const headers = () => ({
  Authorization: `Bearer ${key}`,
  "X-App-Code": "selfserve",
  "Content-Type": "application/json",
});

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}

interface Outcome {
  problems: string[];
  ms: number;
}

async function rag(index: number): Promise<Outcome> {
  const started = performance.now();
  const response = await fetch(`${fixture.url}${publicPaths.rag(fixture.assistant.id)}`, {
    method: "POST",
    headers: headers(),
    body: JSON.stringify({ query: questions[index % questions.length] }),
    signal: AbortSignal.timeout(budget.requestTimeoutMs),
  });
  const body = await response.text();
  count(tally.requests, statusClass(response.status));
  return {
    problems: violations({ status: response.status, headers: response.headers, body }),
    ms: performance.now() - started,
  };
}

async function ask(index: number): Promise<Outcome> {
  const started = performance.now();
  const response = await fetch(`${fixture.url}${publicPaths.ask(fixture.assistant.id, randomUUID())}`, {
    method: "POST",
    headers: headers(),
    body: JSON.stringify({ id_user: `load-${index % 7}`, message: questions[index % questions.length] }),
    signal: AbortSignal.timeout(budget.requestTimeoutMs),
  });
  const body = await response.text();
  count(tally.requests, statusClass(response.status));
  const problems = violations({ status: response.status, headers: response.headers, body });
  if (problems.some((problem) => problem.startsWith("a malformed stream line")))
    count(tally.requests, "malformed stream line");
  if (response.status === 200 && problems.length === 0 && reduceAnswerText(body).phase !== "done") {
    problems.push("the stream ended before its done line");
  }
  return { problems, ms: performance.now() - started };
}

/** `concurrency` callers, each sending one request after another until `seconds` pass. */
async function step(concurrency: number, seconds: number, call: (index: number) => Promise<Outcome>) {
  const deadline = Date.now() + seconds * 1000;
  const latencies: number[] = [];
  const problems: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < deadline) {
        try {
          const outcome = await call(next++);
          latencies.push(outcome.ms);
          problems.push(...outcome.problems);
        } catch (error) {
          count(tally.requests, "no response");
          problems.push(`no answer: ${String(error)}`);
        }
      }
    }),
  );
  return { latencies: latencies.sort((a, b) => a - b), problems };
}

describe("load while ingesting", () => {
  it("rag and ask at rising concurrency: no 5xx, no malformed line, every stream complete", async () => {
    const ingesting = extractPdfPages(
      join(evalPdfFolder, "debian-reference.en.pdf"),
      fullRun ? "1-200" : "1-40",
      "ingesting.pdf",
    );
    const uploaded = await uploadFile(fixture.admin, fixture.assistant.id, ingesting);
    count(tally.faults, "ingestion running during load");
    const table: string[] = [];
    for (const concurrency of budget.loadConcurrency) {
      for (const [name, call] of [
        ["rag", rag],
        ["ask", ask],
      ] as const) {
        const { latencies, problems } = await step(concurrency, budget.loadStepSeconds, call);
        const label = `${name} × ${concurrency}`;
        tally.latency[label] = {
          p50: percentile(latencies, 0.5),
          p99: percentile(latencies, 0.99),
          count: latencies.length,
        };
        table.push(
          `${label.padEnd(10)} ${String(latencies.length).padStart(6)} requests  p50 ${percentile(latencies, 0.5).toFixed(1)} ms  p99 ${percentile(latencies, 0.99).toFixed(1)} ms`,
        );
        expect(problems.slice(0, 5), label).toEqual([]);
        expect(latencies.length, label).toBeGreaterThan(0);
      }
    }
    console.log(`load (${budget.loadStepSeconds} s per step, while ingesting):\n${table.join("\n")}`);
    const [document] = uploaded;
    const deadline = Date.now() + 240_000;
    for (;;) {
      const status = (await fixture.admin.listDocuments(fixture.assistant.id)).find(
        (candidate) => candidate.id === document?.id,
      )?.status;
      if (status === "ready") break;
      expect(status).not.toBe("failed");
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((resolveWait) => setTimeout(resolveWait, 500));
    }
    count(tally.checked, "documents ready after load");
  }, 600_000);

  it("no secret the run handled appears in the service's logs", async () => {
    const ask = await fetch(`${fixture.url}${publicPaths.ask(fixture.assistant.id, randomUUID())}`, {
      method: "POST",
      headers: headers(),
      body: JSON.stringify({ id_user: "secret-check", message: questions[0] }),
    });
    const tokens = [...(await ask.text()).matchAll(/"token":"([^"]+)"/g)].map((match) => match[1] ?? "");
    const secrets = [key, fixture.adminToken, fixture.tokenSecret, ...tokens].filter(
      (secret) => secret.length >= 16,
    );
    expect(secrets.length).toBeGreaterThan(3);
    const logs = fixture.service.logs();
    for (const secret of secrets) {
      expect(logs.includes(secret), `a secret of ${secret.length} characters is in the logs`).toBe(false);
      count(tally.checked, "secrets searched for in the logs");
    }
  });
});
