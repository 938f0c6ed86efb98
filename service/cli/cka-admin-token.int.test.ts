/** `cka` on the machine of a service whose admin token comes from CKA_ADMIN_TOKEN finds the token in force in its data folder. */
import { execFile } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readSecrets } from "../secrets.ts";
import { testAdminToken } from "../testing/sharing-area.ts";
import { type SpawnedService, spawnService } from "../testing/spawn-service.ts";

const cli = path.resolve(import.meta.dirname, "../cli.ts");

let service: SpawnedService;
beforeAll(async () => {
  service = await spawnService({ env: { CKA_ADMIN_TOKEN: testAdminToken } });
});
afterAll(async () => {
  await service?.stop();
});

/** Runs `cka` from a shell without CKA_ADMIN_TOKEN, pointed at the service's data folder. */
function ckaWithDataFolder(args: string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [cli, ...args, "--url", service.url, "--data", service.dataDir],
      { env: { ...process.env, CKA_ADMIN_TOKEN: "" }, timeout: 60_000 },
      (error, _stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stderr }),
    );
  });
}

describe("the admin token of a service given CKA_ADMIN_TOKEN", () => {
  it("is the one secrets.json holds, so cka --data works without the variable", async () => {
    const run = await ckaWithDataFolder(["assistants", "list"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(readSecrets(service.dataDir)?.adminToken).toBe(testAdminToken);
  });
});
