/** Answers and PDF slices taken from a real service process over HTTP, for the evidence harness page. */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import type { HarnessAccount } from "../../components/harness/evidence-harness.tsx";
import { type AnswerState, createAnswerState, mergeAnswer } from "../../sdk/core/index.ts";
import { publicPaths } from "../../sdk/core/service-paths.ts";
import type { Reference } from "../../sdk/core/wire.ts";
import { evalPdfFolder, type PublicApiFixture } from "../../service/testing/public-api-fixture.ts";
import { temporaryDirectory } from "../../service/testing/temporary-directory.ts";

export interface RecordedAnswer {
  messageId: string;
  answer: AnswerState;
  slices: HarnessAccount["slices"];
}

const headers = (key: string) => ({
  Authorization: `Bearer ${key}`,
  "X-App-Code": "selfserve",
  "Content-Type": "application/json",
});

/** Asks the service one question as `user` and loads the slice of every PDF reference of the answer. */
export async function recordAnswer(
  fixture: PublicApiFixture,
  key: string,
  user: string,
  question: string,
): Promise<RecordedAnswer> {
  const session = crypto.randomUUID();
  const response = await fetch(`${fixture.url}${publicPaths.ask(fixture.assistant.id, session)}`, {
    method: "POST",
    headers: headers(key),
    body: JSON.stringify({ id_user: user, message: question }),
  });
  if (!response.ok) throw new Error(`ask answered ${response.status}: ${await response.text()}`);
  let answer = createAnswerState();
  for (const line of (await response.text()).split("\n")) {
    if (line.trim() !== "") answer = mergeAnswer(answer, JSON.parse(line));
  }
  if (answer.phase !== "done" || answer.messageId === null) throw new Error(`no answer to "${question}"`);
  const slices: HarnessAccount["slices"] = {};
  for (const reference of Object.values(answer.references)) {
    if (reference.kind !== "pdf_highlight") continue;
    const slice = await fetch(
      `${fixture.url}${publicPaths.pdfPage(reference.pdf.token, reference.page_index)}`,
      { headers: { ...headers(key), "X-External-User-Id": user } },
    );
    if (!slice.ok) throw new Error(`the slice of ${reference.id} answered ${slice.status}`);
    slices[reference.id] = {
      base64: Buffer.from(await slice.arrayBuffer()).toString("base64"),
      sliceStart: Number(slice.headers.get("X-Pdf-Slice-Start")),
      documentPageCount: Number(slice.headers.get("X-Pdf-Page-Count")),
    };
  }
  return { messageId: answer.messageId, answer, slices };
}

/** The PDF references of an answer, in citation order. */
export function pdfReferences(answer: AnswerState): Extract<Reference, { kind: "pdf_highlight" }>[] {
  return Object.values(answer.references).filter(
    (reference): reference is Extract<Reference, { kind: "pdf_highlight" }> =>
      reference.kind === "pdf_highlight",
  );
}

/** Three pages of another eval PDF, as base64: what a second account's slice looks like. */
export function otherPdfPages(): string {
  const target = join(temporaryDirectory("cited-e2e-"), "other.pdf");
  execFileSync("qpdf", ["--empty", "--pages", join(evalPdfFolder, "gnuplot.pdf"), "40-42", "--", target]);
  return readFileSync(target).toString("base64");
}

/** Opens the evidence harness page with these accounts' recorded answers, PDF slices and images. */
export async function openHarness(page: Page, accounts: HarnessAccount[]): Promise<void> {
  await page.addInitScript((data) => {
    window.__citedHarness = { accounts: data };
  }, accounts);
  await page.goto("/harness/evidence");
}
