/**
 * A file larger than Next.js's buffer for a proxy (10 MiB) goes through the console whole: the
 * upload route streams it to the service, and no proxy clones, holds or cuts the request body.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { documentListSchema } from "../sdk/admin/schemas.ts";
import { ConsoleSourcesPage } from "./pages/console-sources-page.ts";
import { expect, test } from "./support/app-fixtures.ts";
import { operatorName } from "./support/console-stack.ts";

const largeLimit = 16 * 1024 * 1024;

test.use({ appStackOptions: { console: { operators: [operatorName], maxUploadBytes: largeLimit } } });

/** About 12 MiB of Markdown: numbered sentences, so no two lines are alike. */
function writeLargeMarkdown(path: string): Buffer {
  const lines = ["# Warehouse log\n"];
  let bytes = 0;
  for (let entry = 1; bytes < 12 * 1024 * 1024; entry += 1) {
    const line = `Entry ${entry}: crate ${entry * 7} left dock ${entry % 13} for aisle ${entry % 97} at minute ${entry % 1440}.\n`;
    lines.push(line);
    bytes += line.length;
  }
  const content = Buffer.from(lines.join(""));
  writeFileSync(path, content);
  return content;
}

test("a Markdown file over 10 MiB reaches the service whole through the console", async ({
  page,
  appStack,
  signInPage,
}) => {
  test.setTimeout(180_000);
  const folder = mkdtempSync(join(tmpdir(), "console-large-upload-"));
  try {
    const path = join(folder, "warehouse-log.md");
    const content = writeLargeMarkdown(path);
    expect(statSync(path).size).toBeGreaterThan(10 * 1024 * 1024);

    await signInPage.signIn(operatorName);
    const sources = new ConsoleSourcesPage(page);
    await sources.goto(appStack.assistantId);
    await sources.datasourceInput.fill("large files");
    await sources.fileInput.setInputFiles(path);

    const row = sources.row("warehouse-log.md");
    await expect(row).not.toHaveAttribute("data-state", "uploading", { timeout: 120_000 });
    await expect(row).toHaveAttribute("data-state", /^(queued|processing|ready)$/);

    const listing = await fetch(
      `${appStack.serviceUrl}/admin/v1/assistants/${appStack.assistantId}/documents`,
      {
        headers: { Authorization: `Bearer ${appStack.adminToken}` },
      },
    );
    expect(listing.status).toBe(200);
    const document = documentListSchema
      .parse(await listing.json())
      .documents.find((entry) => entry.file_name === "warehouse-log.md");
    expect(document?.status).not.toBe("failed");
    expect(document?.bytes).toBe(content.length);
    expect(document?.sha256).toBe(createHash("sha256").update(content).digest("hex"));

    // Its ingestion is not what this test is about, and would keep the machine busy.
    const deleted = await fetch(
      `${appStack.serviceUrl}/admin/v1/assistants/${appStack.assistantId}/documents/${document?.id}`,
      { method: "DELETE", headers: { Authorization: `Bearer ${appStack.adminToken}` } },
    );
    expect(deleted.status).toBe(204);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
