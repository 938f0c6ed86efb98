/** `cka` against a running service: assistants, keys, share and ingest, as a customer types them. */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAdminClient } from "../../sdk/admin/index.ts";
import { evalPdfPath, qpdf, scratchFolder } from "../ingest/pdf/testing/pdf-fixtures.ts";
import { rag, testAdminToken } from "../testing/sharing-area.ts";
import { type SpawnedService, spawnService } from "../testing/spawn-service.ts";

const cli = path.resolve(import.meta.dirname, "../cli.ts");
const maxUploadBytes = 1_000_000;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

describe("cka, the command line of the sharing area", () => {
  let service: SpawnedService;
  let scratch: Awaited<ReturnType<typeof scratchFolder>>;

  /** Runs `cka` with piped output (not a terminal), as a script or CI job would. */
  function cka(args: string[], token = testAdminToken): Promise<Run> {
    return new Promise((resolve) => {
      execFile(
        process.execPath,
        [cli, ...args, "--url", service.url, "--admin-token", token],
        { env: { ...process.env, CKA_ADMIN_TOKEN: "" }, timeout: 60_000 },
        (error, stdout, stderr) => {
          const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
          resolve({ code, stdout, stderr });
        },
      );
    });
  }

  beforeAll(async () => {
    scratch = await scratchFolder();
    const good = path.join(scratch.folder, "good");
    const mixed = path.join(scratch.folder, "mixed");
    await mkdir(path.join(good, "nested"), { recursive: true });
    await mkdir(mixed);
    const excerpt = (source: Parameters<typeof evalPdfPath>[0], pages: string, target: string) =>
      qpdf(["--empty", "--pages", evalPdfPath(source), pages, "--", target]);
    [service] = await Promise.all([
      spawnService({
        env: { CKA_ADMIN_TOKEN: testAdminToken, CKA_MAX_UPLOAD_BYTES: String(maxUploadBytes) },
      }),
      excerpt("developers-reference.pdf", "20-24", path.join(good, "vacation.pdf")),
      excerpt("gnuplot.pdf", "21-25", path.join(good, "nested", "copyright.pdf")),
      excerpt("debian-reference.en.pdf", "30-33", path.join(mixed, "reference.pdf")),
      writeFile(path.join(mixed, "broken.pdf"), randomBytes(30_000)),
      writeFile(path.join(mixed, "huge.pdf"), randomBytes(maxUploadBytes + 1)),
    ]);
  });
  afterAll(async () => {
    await service?.stop("SIGKILL");
    if (service) await rm(service.dataDir, { recursive: true, force: true });
    await scratch?.remove();
  });

  // As `cka serve` decides: Linux (with glibc here), execve available, the variable not set by the caller.
  it.skipIf(
    process.platform !== "linux" ||
      typeof process.execve !== "function" ||
      process.env.MALLOC_MMAP_THRESHOLD_ !== undefined,
  )(
    "serves with glibc's mmap threshold fixed, so freed large buffers leave memory; same process",
    async () => {
      // spawnService started this pid; `cka serve` replaced its own image, keeping the pid, with the setting on.
      const environment = (await readFile(`/proc/${service.process.pid}/environ`, "utf8")).split("\0");
      expect(environment).toContain("MALLOC_MMAP_THRESHOLD_=131072");
      expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
    },
  );

  it("creates, lists, renames and deletes assistants", async () => {
    const created = await cka(["assistants", "create", "Handbook"]);
    expect(created).toMatchObject({ code: 0, stderr: "" });
    const id = created.stdout.trim();
    expect(id).toMatch(/^asst_\w+$/);

    const listed = await cka(["assistants", "list"]);
    expect(listed.code).toBe(0);
    expect(listed.stdout.split("\n")).toContain(`${id}\tHandbook`);

    const renamed = await cka(["assistants", "rename", id, "Staff handbook"]);
    expect(renamed).toMatchObject({ code: 0, stdout: `${id}\tStaff handbook\n` });
    expect((await cka(["assistants", "list"])).stdout.split("\n")).toContain(`${id}\tStaff handbook`);
    const nameless = await cka(["assistants", "rename", id]);
    expect(nameless.code).not.toBe(0);
    expect(nameless.stderr).toMatch(/^cka: .*rename ID NAME/);

    const deleted = await cka(["assistants", "delete", id]);
    expect(deleted).toMatchObject({ code: 0, stdout: `deleted ${id}\n` });
    expect((await cka(["assistants", "list"])).stdout).not.toContain(id);

    const again = await cka(["assistants", "delete", id]);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/^cka: .*No assistant/);
  });

  it("says how the service searches, and why by words only when it has no model", async () => {
    const run = await cka(["status"]);
    expect(run.code).toBe(0);
    const [mode, detail] = run.stdout.trim().split("\n");
    expect(mode).toBe("search: by words only");
    expect(detail).toBe("semantic search is turned off (CKA_EMBEDDINGS=off)");
  });

  it("says so plainly when the admin token is wrong", async () => {
    const run = await cka(["assistants", "list"], "wrong-token-0123456789abcdef");
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/^cka: .*admin token/);
  });

  it("creates a key shown once, lists it without the secret, and revokes it at once", async () => {
    const assistant = (await cka(["assistants", "create", "Keys"])).stdout.trim();
    const created = await cka([
      "keys",
      "create",
      "--assistant",
      assistant,
      "--scopes",
      "rag",
      "--name",
      "website",
    ]);
    expect(created.code).toBe(0);
    const [header, key, note] = created.stdout.trim().split("\n");
    const [keyId, scopes] = header!.split("\t");
    expect(keyId).toMatch(/^key_/);
    expect(scopes).toBe("rag");
    expect(key).toMatch(/^cka_live_/);
    expect(note).toMatch(/shown only now/);

    const listed = await cka(["keys", "list", "--assistant", assistant]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`^${keyId}\\t\\S+…\\trag\\tactive\\tnever used$`, "m"));
    expect(listed.stdout).not.toContain(key);
    expect((await rag(service.url, key!, assistant, { query: "anything" })).status).toBe(200);

    expect(await cka(["keys", "revoke", keyId!])).toMatchObject({ code: 0, stdout: `revoked ${keyId}\n` });
    expect((await rag(service.url, key!, assistant, { query: "anything" })).status).toBe(401);
    expect((await cka(["keys", "list", "--assistant", assistant])).stdout).toMatch(
      new RegExp(`^${keyId}\\t.*\\trevoked\\tlast used \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z$`, "m"),
    );
  });

  it("prints the assistant id and base URL for the SDK", async () => {
    const assistant = (await cka(["assistants", "create", "Share"])).stdout.trim();
    const share = await cka(["share", "--assistant", assistant]);
    expect(share).toMatchObject({ code: 0, stdout: `assistant: ${assistant}\nbase_url:  ${service.url}\n` });
    const json = await cka(["share", "--assistant", assistant, "--json"]);
    expect(JSON.parse(json.stdout)).toEqual({ assistant, base_url: service.url });
  });

  it("ingests a folder with plain-line progress and a summary, exiting 0 when every file is ready", async () => {
    const assistant = (await cka(["assistants", "create", "Ingest"])).stdout.trim();
    const run = await cka(["ingest", "--assistant", assistant, path.join(scratch.folder, "good")]);
    expect(run.stderr).toBe("");
    expect(run.code, `${run.stdout}\n${service.logs()}`).toBe(0);
    const lines = run.stdout.trimEnd().split("\n");
    expect(run.stdout).not.toContain("\u001b");
    expect(lines).toContain("copyright.pdf: queued");
    expect(lines).toContain("vacation.pdf: queued");
    expect(lines).toEqual(
      expect.arrayContaining([expect.stringMatching(/^vacation\.pdf: ready: 5 pages, \d+ passages$/)]),
    );
    expect(lines).toEqual(
      expect.arrayContaining([expect.stringMatching(/^copyright\.pdf: ready: 5 pages, \d+ passages$/)]),
    );
    expect(lines.at(-1)).toMatch(/^2 ready, 0 failed; 10 pages in \d+\.\d s \(\d+ pages\/s\)$/);

    const documents = await createAdminClient({
      baseUrl: service.url,
      adminToken: testAdminToken,
    }).listDocuments(assistant);
    expect(documents.map((document) => [document.file_name, document.status]).sort()).toEqual([
      ["copyright.pdf", "ready"],
      ["vacation.pdf", "ready"],
    ]);
  });

  it("exits non-zero and names the reason when a file fails, after reading the others", async () => {
    const assistant = (await cka(["assistants", "create", "Mixed"])).stdout.trim();
    const run = await cka([
      "ingest",
      "--assistant",
      assistant,
      "--datasource",
      "manuals",
      path.join(scratch.folder, "mixed"),
    ]);
    expect(run.code).not.toBe(0);
    const lines = run.stdout.trimEnd().split("\n");
    // The service's warnings and errors say why, should a file fail that should not.
    expect(lines, service.logs()).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^broken\.pdf: failed: .*not a readable PDF/),
        expect.stringMatching(new RegExp(`^huge\\.pdf: failed: .*at most ${maxUploadBytes} bytes`)),
        expect.stringMatching(/^reference\.pdf: ready: 4 pages, \d+ passages$/),
      ]),
    );
    expect(lines.at(-1)).toMatch(/^1 ready, 2 failed; 4 pages in \d+\.\d s \(\d+ pages\/s\)$/);
  });
});
