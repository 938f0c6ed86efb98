/** Deleting an assistant while one of its documents is being read: the index snapshot it leaves is dropped quietly. */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AdminClient, createAdminClient } from "../../sdk/admin/index.ts";
import { uploadFile } from "../cli/admin-client.ts";
import { evalPdfFolder } from "../testing/public-api-fixture.ts";
import { testAdminToken, waitForDocuments } from "../testing/sharing-area.ts";
import { type SpawnedService, spawnService } from "../testing/spawn-service.ts";

let service: SpawnedService;
let admin: AdminClient;
beforeAll(async () => {
  service = await spawnService({ env: { CKA_ADMIN_TOKEN: testAdminToken, CKA_OCR: "off", CKA_LOG: "info" } });
  admin = createAdminClient({ baseUrl: service.url, adminToken: testAdminToken });
});
afterAll(async () => {
  await service?.stop();
});

const logLines = () =>
  service
    .logs()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { level: string; message: string; [detail: string]: unknown });

describe("deleting an assistant while a document is ingesting", () => {
  it("logs no error: the snapshot of the deleted assistant is dropped", async () => {
    const assistant = await admin.createAssistant("deleted while reading");
    await uploadFile(admin, assistant.id, path.join(evalPdfFolder, "gnuplot.pdf"));
    await waitForDocuments(admin, assistant.id, {
      done: (documents) => documents.some((document) => document.status === "processing"),
    });
    await admin.deleteAssistant(assistant.id);
    // The reading goes on to its end; its index change is saved (or dropped) 1.5 s after it.
    const deadline = Date.now() + 120_000;
    while (!logLines().some((line) => /snapshot/.test(line.message) && line.assistantId === assistant.id)) {
      if (Date.now() > deadline)
        throw new Error(`no snapshot line for the deleted assistant:\n${service.logs()}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(logLines().filter((line) => line.level === "error")).toEqual([]);
  }, 180_000);
});
