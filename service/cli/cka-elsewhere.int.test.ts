/**
 * `cka` after `cka serve` on another port or data folder: an admin command that cannot reach the service or
 * is refused says which URL and data folder it tried and how to point it elsewhere.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keepSecrets } from "../secrets.ts";
import { refusedBaseUrl } from "../testing/model-server-stand-in.ts";
import { type SpawnedService, spawnService } from "../testing/spawn-service.ts";
import { temporaryDirectory } from "../testing/temporary-directory.ts";

const cli = path.resolve(import.meta.dirname, "../cli.ts");

/** Runs `cka` from a new folder with only the connection settings given (an empty variable counts as unset). */
function cka(
  args: string[],
  settings: Record<string, string> = {},
): Promise<{ code: number; stderr: string }> {
  const env = { ...process.env, CKA_URL: "", CKA_DATA: "", CKA_ADMIN_TOKEN: "", ...settings };
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [cli, ...args],
      { env, cwd: temporaryDirectory("cka-cwd-"), timeout: 60_000 },
      (error, _stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stderr }),
    );
  });
}

describe("cka pointed at no service or another one", () => {
  let service: SpawnedService;
  beforeAll(async () => {
    service = await spawnService();
  });
  afterAll(async () => {
    await service?.stop();
  });

  it("without a token, names the URL and the data folder it looked in, and the settings that point elsewhere", async () => {
    const run = await cka(["assistants", "list"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("http://127.0.0.1:8787");
    expect(run.stderr).toMatch(/\/\.data\/service\b/);
    for (const setting of ["--url", "CKA_URL", "--data", "CKA_DATA", "--admin-token", "CKA_ADMIN_TOKEN"])
      expect(run.stderr).toContain(setting);
  });

  it("when nothing answers at the URL, names it and the data folder, and says how to give others", async () => {
    const url = new URL(await refusedBaseUrl()).origin;
    const data = temporaryDirectory("cka-data-");
    keepSecrets(data, undefined);
    const run = await cka(["status"], { CKA_URL: url, CKA_DATA: data });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(url);
    expect(run.stderr).toContain(data);
    expect(run.stderr).toContain("cka serve");
    expect(run.stderr).toContain("--url");
    expect(run.stderr).toContain("CKA_URL");
  });

  it("when the service refuses the token of another data folder, names that folder and how to give the right one", async () => {
    const otherData = temporaryDirectory("cka-other-data-");
    keepSecrets(otherData, undefined);
    const run = await cka(["assistants", "list", "--url", service.url, "--data", otherData]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(service.url);
    expect(run.stderr).toContain(otherData);
    expect(run.stderr).toContain("--data");
    expect(run.stderr).toContain("CKA_DATA");
  });

  it("with the service's own data folder, works without any other setting", async () => {
    const run = await cka(["assistants", "list"], { CKA_URL: service.url, CKA_DATA: service.dataDir });
    expect(run).toEqual({ code: 0, stderr: "" });
  });
});
