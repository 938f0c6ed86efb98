/** The sharing area against the service's app in this process: assistants, documents, keys, share, and uploads that cannot be read. */

import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { readFile, rm, utimes } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type AdminClient, createAdminClient } from "../../sdk/admin/index.ts";
import type { DocumentRecord } from "../../sdk/admin/schemas.ts";
import { publicPaths } from "../../sdk/core/service-paths.ts";
import { evalPdfPath, makeScannedPdf, qpdf, scratchFolder } from "../ingest/pdf/testing/pdf-fixtures.ts";
import { type InProcessService, openInProcessService } from "../testing/in-process-service.ts";
import { callPublic } from "../testing/public-api-client.ts";
import { rag, testAdminToken, uploadFiles, waitForDocuments } from "../testing/sharing-area.ts";

/** Every fixture below stays under this; a whole eval PDF is over it. */
const maxUploadBytes = 200_000;

interface Fixtures {
  vacation: Uint8Array;
  copyright: Uint8Array;
  encrypted: Uint8Array;
  truncated: Uint8Array;
  scanned: Uint8Array;
  tooLarge: Uint8Array;
}

async function makeFixtures(folder: string): Promise<Fixtures> {
  const file = (name: string) => path.join(folder, name);
  // Developers' Reference pp. 20–24 ("Going on vacation gracefully"); gnuplot pp. 21–25 (its copyright).
  await qpdf([
    "--empty",
    "--pages",
    evalPdfPath("developers-reference.pdf"),
    "20-24",
    "--",
    file("vacation.pdf"),
  ]);
  await qpdf(["--empty", "--pages", evalPdfPath("gnuplot.pdf"), "21-25", "--", file("copyright.pdf")]);
  await qpdf(["--encrypt", "user", "owner", "256", "--", file("vacation.pdf"), file("encrypted.pdf")]);
  const copyright = new Uint8Array(await readFile(file("copyright.pdf")));
  return {
    vacation: new Uint8Array(await readFile(file("vacation.pdf"))),
    copyright,
    encrypted: new Uint8Array(await readFile(file("encrypted.pdf"))),
    truncated: copyright.slice(0, 20_000),
    scanned: await makeScannedPdf(file("vacation.pdf"), 0, 50),
    tooLarge: new Uint8Array(await readFile(evalPdfPath("developers-reference.pdf"))),
  };
}

const byName = (documents: DocumentRecord[], name: string) => {
  const document = documents.find((candidate) => candidate.file_name === name);
  if (!document) throw new Error(`no document ${name} among ${documents.map((d) => d.file_name).join(", ")}`);
  return document;
};

describe("the sharing area (admin API) of a running service", () => {
  let service: InProcessService;
  /** Requests go to the service's app in this process. */
  const send: typeof fetch = (input, init) => service.fetch(input, init);
  const upload = (assistantId: string, files: Parameters<typeof uploadFiles>[2], options = {}) =>
    uploadFiles(service.url, assistantId, files, { ...options, send });
  const search = (key: string, assistantId: string, body: Parameters<typeof rag>[3]) =>
    rag(service.url, key, assistantId, body, send);
  let client: AdminClient;
  let scratch: Awaited<ReturnType<typeof scratchFolder>>;
  let fixtures: Fixtures;

  beforeAll(async () => {
    scratch = await scratchFolder();
    [service, fixtures] = await Promise.all([
      openInProcessService({
        env: {
          CKA_ADMIN_TOKEN: testAdminToken,
          CKA_OCR: "off",
          CKA_MAX_UPLOAD_BYTES: String(maxUploadBytes),
        },
      }),
      makeFixtures(scratch.folder),
    ]);
    client = createAdminClient({ baseUrl: service.url, adminToken: testAdminToken, fetch: send });
  });
  afterAll(async () => {
    await service?.close();
    if (service) await rm(service.dataDir, { recursive: true, force: true });
    await scratch?.remove();
  });

  /** An assistant with a rag key, and the given files uploaded and settled. */
  async function assistantWith(files: Array<{ name: string; bytes: Uint8Array }>) {
    const assistant = await client.createAssistant(`test ${randomBytes(3).toString("hex")}`);
    const key = await client.createKey(assistant.id, ["ask", "rag"]);
    if (files.length > 0) expect((await upload(assistant.id, files)).status).toBe(202);
    const documents = await waitForDocuments(client, assistant.id);
    return { assistant, key: key.key, documents };
  }

  describe("happy paths", () => {
    it("creates, lists and deletes assistants; deleting one removes its documents and keys", async () => {
      const { assistant, key } = await assistantWith([{ name: "vacation.pdf", bytes: fixtures.vacation }]);
      expect(assistant.id).toMatch(/^asst_/);
      expect((await client.listAssistants()).map((item) => item.id)).toContain(assistant.id);
      expect((await search(key, assistant.id, { query: "vacation" })).status).toBe(200);

      await client.deleteAssistant(assistant.id);

      expect((await client.listAssistants()).map((item) => item.id)).not.toContain(assistant.id);
      await expect(client.listDocuments(assistant.id)).rejects.toMatchObject({ status: 404 });
      expect((await search(key, assistant.id, { query: "vacation" })).status).toBe(401);
      await expect(client.deleteAssistant(assistant.id)).rejects.toMatchObject({ status: 404 });
    });

    it("renames an assistant within the bounds of a new name, and says 404 for an unknown one", async () => {
      const assistant = await client.createAssistant("Old name");
      const renamed = await client.renameAssistant(assistant.id, "  Field manuals  ");
      expect(renamed).toEqual({ ...assistant, name: "Field manuals" });
      expect((await client.listAssistants()).find((item) => item.id === assistant.id)?.name).toBe(
        "Field manuals",
      );
      const rename = (id: string, body: unknown) =>
        send(`${service.url}/admin/v1/assistants/${id}`, {
          method: "PATCH",
          headers: { Authorization: `Bearer ${testAdminToken}`, "Content-Type": "application/json" },
          body: JSON.stringify(body),
        });
      for (const body of [{ name: " " }, { name: "x".repeat(201) }, {}]) {
        const refused = await rename(assistant.id, body);
        expect(refused.status, JSON.stringify(body)).toBe(422);
        expect(await refused.json()).toMatchObject({ code: "invalid_input" });
      }
      expect((await rename("asst_doesnotexist", { name: "Anything" })).status).toBe(404);
      await expect(client.renameAssistant("asst_doesnotexist", "Anything")).rejects.toMatchObject({
        status: 404,
      });
    });

    it("holds a listing asked with If-None-Match and Prefer: wait until a document changes", async () => {
      const { assistant } = await assistantWith([]);
      const path = `${service.url}/admin/v1/assistants/${assistant.id}/documents`;
      const listing = (headers: Record<string, string> = {}) =>
        send(path, { headers: { Authorization: `Bearer ${testAdminToken}`, ...headers } });
      const first = await listing();
      const etag = first.headers.get("ETag") ?? "";
      expect(etag).toMatch(/^"[\w-]+"$/);
      expect(await first.json()).toEqual({ documents: [] });

      // Nothing changes: after the wait the client hears that its copy is current.
      let started = performance.now();
      const unchanged = await listing({ "If-None-Match": etag, Prefer: "wait=1" });
      expect(unchanged.status).toBe(304);
      expect(performance.now() - started).toBeGreaterThanOrEqual(900);

      // An upload answers a waiting request at once, long before its 20 s are up.
      started = performance.now();
      const waiting = listing({ "If-None-Match": etag, Prefer: "wait=20" });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await upload(assistant.id, [{ name: "vacation.pdf", bytes: fixtures.vacation }])).status).toBe(
        202,
      );
      const changed = await waiting;
      expect(performance.now() - started).toBeLessThan(10_000);
      expect(changed.status).toBe(200);
      expect(changed.headers.get("ETag")).not.toBe(etag);
      const { documents } = (await changed.json()) as { documents: DocumentRecord[] };
      expect(documents.map((document) => document.file_name)).toEqual(["vacation.pdf"]);
    });

    it("answers a held listing with 404 as soon as its assistant is deleted, not when its wait ends", async () => {
      const { assistant } = await assistantWith([]);
      const authorization = { Authorization: `Bearer ${testAdminToken}` };
      const path = `${service.url}/admin/v1/assistants/${assistant.id}/documents`;
      const etag = (await send(path, { headers: authorization })).headers.get("ETag") ?? "";
      const started = performance.now();
      const waiting = send(path, {
        headers: { ...authorization, "If-None-Match": etag, Prefer: "wait=20" },
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      await client.deleteAssistant(assistant.id);
      const answered = await waiting;
      expect(answered.status).toBe(404);
      expect(performance.now() - started).toBeLessThan(10_000);
    });

    it("lists documents with status, pages, passages and progress; a deleted document leaves rag", async () => {
      const { assistant, key, documents } = await assistantWith([
        { name: "vacation.pdf", bytes: fixtures.vacation },
        { name: "copyright.pdf", bytes: fixtures.copyright },
      ]);
      const vacation = byName(documents, "vacation.pdf");
      expect(vacation).toMatchObject({
        status: "ready",
        datasource: "default",
        pages: 5,
        pages_done: 5,
        bytes: fixtures.vacation.byteLength,
        sha256: createHash("sha256").update(fixtures.vacation).digest("hex"),
      });
      expect(vacation.passages).toBeGreaterThan(3);
      expect(vacation.error).toBeUndefined();
      expect(byName(documents, "copyright.pdf")).toMatchObject({ status: "ready", pages: 5 });

      const before = await search(key, assistant.id, { query: "going on vacation gracefully" });
      expect(before.results.map((result) => result.metadata.id_document)).toContain(vacation.id);

      const removed = await send(
        `${service.url}/admin/v1/assistants/${assistant.id}/documents/${vacation.id}`,
        {
          method: "DELETE",
          headers: { Authorization: `Bearer ${testAdminToken}` },
        },
      );
      expect(removed.status).toBe(204);

      const after = await search(key, assistant.id, { query: "going on vacation gracefully" });
      expect(after.results.map((result) => result.metadata.id_document)).not.toContain(vacation.id);
      const copyright = await search(key, assistant.id, { query: "Thomas Williams Colin Kelley" });
      expect(copyright.results.length).toBeGreaterThan(0);
      expect((await client.listDocuments(assistant.id)).map((document) => document.file_name)).toEqual([
        "copyright.pdf",
      ]);
    });

    it("shows a key in full only when it is created, never in the list, and a revoked key fails at once", async () => {
      const { assistant } = await assistantWith([{ name: "copyright.pdf", bytes: fixtures.copyright }]);
      const created = await client.createKey(assistant.id, ["rag"], "website");
      expect(created).toMatchObject({
        id_assistant: assistant.id,
        name: "website",
        scopes: ["rag"],
        revoked_at: null,
      });
      expect(created.key).toMatch(/^cka_live_/);
      expect(created.key.startsWith(created.prefix)).toBe(true);

      const listResponse = await send(`${service.url}/admin/v1/assistants/${assistant.id}/keys`, {
        headers: { Authorization: `Bearer ${testAdminToken}` },
      });
      const listText = await listResponse.text();
      expect(listText).not.toContain(created.key);
      const listed = (JSON.parse(listText) as { keys: Array<Record<string, unknown>> }).keys;
      const record = listed.find((item) => item.id === created.id);
      expect(record).toMatchObject({ prefix: created.prefix, revoked_at: null });
      expect(record).not.toHaveProperty("key");
      expect(record).not.toHaveProperty("hash");

      expect((await search(created.key, assistant.id, { query: "copyright" })).status).toBe(200);
      await client.revokeKey(created.id);
      expect((await search(created.key, assistant.id, { query: "copyright" })).status).toBe(401);
      const revoked = (await client.listKeys(assistant.id)).find((item) => item.id === created.id);
      expect(revoked?.revoked_at).toEqual(expect.any(String));
      await expect(client.revokeKey("key_doesnotexist000000000")).rejects.toMatchObject({ status: 404 });
    });

    it("makes a key that expires after the seconds asked for, and refuses a lifetime under a minute", async () => {
      const { assistant } = await assistantWith([]);
      const before = Date.now();
      const response = await send(`${service.url}/admin/v1/assistants/${assistant.id}/keys`, {
        method: "POST",
        headers: { Authorization: `Bearer ${testAdminToken}`, "Content-Type": "application/json" },
        body: JSON.stringify({ scopes: ["ask", "rag"], name: "trial", expires_in_seconds: 900 }),
      });
      expect(response.status).toBe(201);
      const created = (await response.json()) as { key: string; expires_at: string };
      expect(Date.parse(created.expires_at) - before).toBeGreaterThanOrEqual(900_000);
      expect(Date.parse(created.expires_at) - before).toBeLessThan(910_000);
      expect((await search(created.key, assistant.id, { query: "anything" })).status).toBe(200);
      const tooShort = await send(`${service.url}/admin/v1/assistants/${assistant.id}/keys`, {
        method: "POST",
        headers: { Authorization: `Bearer ${testAdminToken}`, "Content-Type": "application/json" },
        body: JSON.stringify({ scopes: ["ask"], expires_in_seconds: 5 }),
      });
      expect(tooShort.status).toBe(422);
      expect(JSON.stringify(await tooShort.json())).toContain("expires_in_seconds");
    });

    it("lists an assistant's datasources with how many documents each holds", async () => {
      const { assistant } = await assistantWith([]);
      const markdown = (text: string) => new TextEncoder().encode(`# ${text}\n\n${text} body.\n`);
      const manuals = [
        { name: "install.md", bytes: markdown("Install") },
        { name: "upgrade.md", bytes: markdown("Upgrade") },
      ];
      expect((await upload(assistant.id, manuals, { datasource: "manuals" })).status).toBe(202);
      expect((await upload(assistant.id, [{ name: "faq.md", bytes: markdown("FAQ") }])).status).toBe(202);
      const documents = await waitForDocuments(client, assistant.id);
      const idOf = (name: string) =>
        documents.find((document) => document.datasource === name)?.id_datasource;

      expect(await client.listDatasources(assistant.id)).toEqual([
        { id: idOf("manuals"), name: "manuals", documents: 2 },
        { id: idOf("default"), name: "default", documents: 1 },
      ]);
      await expect(client.listDatasources("asst_doesnotexist")).rejects.toMatchObject({ status: 404 });
    });

    it("shows when a key was last used on ask or rag, and null for a key never used", async () => {
      const { assistant } = await assistantWith([]);
      const ragKey = await client.createKey(assistant.id, ["rag"], "search");
      const askKey = await client.createKey(assistant.id, ["ask"], "chat");
      const unused = await client.createKey(assistant.id, ["ask", "rag"], "spare");
      const before = Date.now();
      expect((await search(ragKey.key, assistant.id, { query: "anything" })).status).toBe(200);
      const asked = await callPublic(
        service.url,
        {
          path: publicPaths.ask(assistant.id, crypto.randomUUID()),
          key: askKey.key,
          body: { id_user: "user-1", message: "Anything there?" },
        },
        send,
      );
      expect(asked.status).toBe(200);
      await asked.text();
      const after = Date.now();

      const keys = await client.listKeys(assistant.id);
      const lastUsed = (id: string) => keys.find((key) => key.id === id)?.last_used_at;
      for (const key of [ragKey, askKey]) {
        const used = Date.parse(lastUsed(key.id) ?? "");
        // One second either side: the database's clock is read in whole microseconds, the test's in milliseconds.
        expect(used, key.name ?? "").toBeGreaterThanOrEqual(before - 1000);
        expect(used, key.name ?? "").toBeLessThanOrEqual(after + 1000);
      }
      expect(lastUsed(unused.id)).toBeNull();
      expect(ragKey.last_used_at).toBeNull();
    });

    it("gives the assistant id and the service's own URL to configure the SDK", async () => {
      const assistant = await client.createAssistant("share me");
      expect(await client.share(assistant.id)).toEqual({ assistant: assistant.id, base_url: service.url });
      await expect(client.share("asst_doesnotexist")).rejects.toMatchObject({ status: 404 });
    });
  });

  describe("files of deleted documents", () => {
    const storedAt = (bytes: Uint8Array): string => {
      const sha256 = createHash("sha256").update(bytes).digest("hex");
      return path.join(service.dataDir, "blobs", sha256.slice(0, 2), sha256);
    };
    const uploadedLongAgo = async (...files: Uint8Array[]): Promise<void> => {
      const elevenMinutesAgo = new Date(Date.now() - 11 * 60_000);
      for (const bytes of files) await utimes(storedAt(bytes), elevenMinutesAgo, elevenMinutesAgo);
    };
    const gone = (bytes: Uint8Array) =>
      vi.waitFor(() => expect(existsSync(storedAt(bytes))).toBe(false), { timeout: 15_000, interval: 100 });

    it("removes a file once no document of any assistant needs it, but not one uploaded in the last minutes", async () => {
      // Unreadable bytes still make documents (failed ones) that keep their files; each test run's are its own.
      const unreadable = () => new Uint8Array(randomBytes(4000));
      const [shared, alone, single, fresh] = [unreadable(), unreadable(), unreadable(), unreadable()];
      const first = await assistantWith([
        { name: "shared.pdf", bytes: shared },
        { name: "alone.pdf", bytes: alone },
        { name: "fresh.pdf", bytes: fresh },
      ]);
      const second = await assistantWith([
        { name: "shared.pdf", bytes: shared },
        { name: "single.pdf", bytes: single },
      ]);
      await uploadedLongAgo(shared, alone, single);

      const removed = await send(
        `${service.url}/admin/v1/assistants/${second.assistant.id}/documents/${byName(second.documents, "single.pdf").id}`,
        { method: "DELETE", headers: { Authorization: `Bearer ${testAdminToken}` } },
      );
      expect(removed.status).toBe(204);
      await gone(single);

      await client.deleteAssistant(first.assistant.id);
      await gone(alone);
      // The second assistant still has this content.
      expect(existsSync(storedAt(shared))).toBe(true);
      // Written moments ago: an upload of the same content may be about to record its document.
      expect(existsSync(storedAt(fresh))).toBe(true);

      await client.deleteAssistant(second.assistant.id);
      await gone(shared);
    });
  });

  describe("uploads that cannot be read", () => {
    it("fails each unreadable file with a plain reason while the good files of the same batch become ready", async () => {
      const { assistant, key, documents } = await assistantWith([
        { name: "vacation.pdf", bytes: fixtures.vacation },
        { name: "random.pdf", bytes: randomBytes(50_000) },
        { name: "truncated.pdf", bytes: fixtures.truncated },
        { name: "encrypted.pdf", bytes: fixtures.encrypted },
        { name: "empty.pdf", bytes: new Uint8Array(0) },
        { name: "scanned.pdf", bytes: fixtures.scanned },
        {
          name: "setup.exe",
          bytes: Buffer.concat([Buffer.from("MZ\x90\x00\x03\x00", "latin1"), randomBytes(4000)]),
        },
        { name: "copyright.pdf", bytes: fixtures.copyright },
      ]);
      expect(documents).toHaveLength(8);
      const reasons: Array<[string, RegExp]> = [
        ["random.pdf", /not a readable PDF|damaged/i],
        ["truncated.pdf", /not a readable PDF|damaged/i],
        ["encrypted.pdf", /password/i],
        ["empty.pdf", /empty/i],
        ["scanned.pdf", /no text|OCR/i],
        ["setup.exe", /unsupported/i],
      ];
      for (const [name, reason] of reasons) {
        const document = byName(documents, name);
        expect(document.status, name).toBe("failed");
        expect(document.error, name).toMatch(reason);
        expect(document.passages ?? 0, name).toBe(0);
      }
      for (const name of ["vacation.pdf", "copyright.pdf"]) {
        expect(byName(documents, name).status, name).toBe("ready");
      }
      const found = await search(key, assistant.id, { query: "going on vacation gracefully" });
      expect(found.results.map((result) => result.metadata.file_name)).toContain("vacation.pdf");
    });

    it("refuses a file over the size limit with 413 problem details and adds no document", async () => {
      const { assistant } = await assistantWith([]);
      const response = await upload(assistant.id, [
        { name: "small.pdf", bytes: fixtures.copyright },
        { name: "large.pdf", bytes: fixtures.tooLarge },
      ]);
      expect(response.status).toBe(413);
      expect(response.headers.get("Content-Type")).toMatch(/application\/problem\+json/);
      expect(await response.json()).toMatchObject({
        status: 413,
        detail: expect.stringContaining(`${maxUploadBytes}`),
      });
      expect(await client.listDocuments(assistant.id)).toEqual([]);
    });

    it("tells the upload limit before anything is sent, to the admin token only", async () => {
      expect(await client.limits()).toEqual({ max_upload_bytes: maxUploadBytes });
      const anonymous = await send(`${service.url}/admin/v1/limits`);
      expect(anonymous.status).toBe(401);
    });

    it("keeps one document with the same passages when the same bytes are uploaded twice", async () => {
      const { assistant, key, documents } = await assistantWith([
        { name: "vacation.pdf", bytes: fixtures.vacation },
      ]);
      const [first] = documents;
      const query = { query: "going on vacation gracefully", max_results: 20 };
      const before = await search(key, assistant.id, query);

      const again = await upload(assistant.id, [{ name: "vacation-copy.pdf", bytes: fixtures.vacation }]);
      expect(again.status).toBe(202);
      const returned = ((await again.json()) as { documents: DocumentRecord[] }).documents;
      expect(returned.map((document) => document.id)).toEqual([first?.id]);

      const after = await waitForDocuments(client, assistant.id);
      expect(after).toHaveLength(1);
      expect(after[0]).toMatchObject({ id: first?.id, status: "ready", passages: first?.passages });
      const repeated = await search(key, assistant.id, query);
      expect(repeated.results.map((result) => result.id_element)).toEqual(
        before.results.map((result) => result.id_element),
      );
      const contents = repeated.results.map((result) => result.content);
      expect(new Set(contents).size).toBe(contents.length);
    });

    it("stores only the last segment of a file name, without control characters", async () => {
      // Browsers send control characters in a name as they are (only CR, LF and `"` are escaped).
      const { assistant } = await assistantWith([
        { name: "C:\\Users\\me\\re\tport.md", bytes: new TextEncoder().encode("# Report\n\nAll good.\n") },
        {
          name: "../../etc/sum\u0007mary\u001b\u007f.md",
          bytes: new TextEncoder().encode("# Summary\n\nFine.\n"),
        },
      ]);
      // A name given as RFC 8187 `filename*` may carry any character, percent-encoded.
      const boundary = "cka-test-boundary";
      const body = [
        `--${boundary}`,
        `Content-Disposition: form-data; name="files"; filename*=UTF-8''..%2F..%2Fetc%2Fnotes%07%1B%7F.md`,
        "Content-Type: text/markdown",
        "",
        "# Notes\n\nThe cat sat on the mat.",
        `--${boundary}--`,
        "",
      ].join("\r\n");
      const response = await send(`${service.url}/admin/v1/assistants/${assistant.id}/documents`, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${testAdminToken}`,
          "Content-Type": `multipart/form-data; boundary=${boundary}`,
        },
        body,
      });
      expect(response.status).toBe(202);
      const documents = await waitForDocuments(client, assistant.id);
      expect(documents.map((document) => document.file_name).sort()).toEqual([
        "notes.md",
        "report.md",
        "summary.md",
      ]);
      expect(documents.every((document) => document.status === "ready")).toBe(true);
    });

    it("answers 404 for an unknown assistant and 401 for a missing or wrong admin token", async () => {
      const unknown = await upload("asst_doesnotexist", [{ name: "a.pdf", bytes: fixtures.vacation }]);
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toMatchObject({ status: 404, code: "not_found" });

      const { assistant } = await assistantWith([]);
      for (const token of [null, "wrong-token-0123456789abcdef"]) {
        const response = await upload(assistant.id, [{ name: "a.pdf", bytes: fixtures.vacation }], {
          token,
        });
        expect(response.status).toBe(401);
        expect(response.headers.get("Content-Type")).toMatch(/application\/problem\+json/);
        expect(await response.json()).toMatchObject({ status: 401, code: "invalid_key" });
        const listing = await send(`${service.url}/admin/v1/assistants`, {
          headers: token === null ? {} : { Authorization: `Bearer ${token}` },
        });
        expect(listing.status).toBe(401);
      }
      expect(await client.listDocuments(assistant.id)).toEqual([]);
    });
  });
});
