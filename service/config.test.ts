import { describe, expect, it } from "vitest";
import { loadConfig } from "./config.ts";
import { readSecrets } from "./secrets.ts";
import { temporaryDirectory } from "./testing/temporary-directory.ts";

const keptAdminToken = (dataDir: string) => readSecrets(dataDir)?.adminToken;

/** An environment with only `values` set (and the NODE_ENV every process has). */
const environment = (values: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  NODE_ENV: "test",
  ...values,
});

describe("the admin token kept in the data folder", () => {
  it("is generated once and kept when no CKA_ADMIN_TOKEN is given", () => {
    const dataDir = temporaryDirectory("cka-config-");
    const first = loadConfig(dataDir, environment());
    expect(loadConfig(dataDir, environment()).adminToken).toBe(first.adminToken);
    expect(keptAdminToken(dataDir)).toBe(first.adminToken);
  });

  it("becomes CKA_ADMIN_TOKEN when a folder started without it is started with it, keeping the token secret", () => {
    const dataDir = temporaryDirectory("cka-config-");
    const generated = loadConfig(dataDir, environment());
    const given = loadConfig(dataDir, environment({ CKA_ADMIN_TOKEN: "given-admin-token-0123456789" }));
    expect(given.adminToken).toBe("given-admin-token-0123456789");
    expect(keptAdminToken(dataDir)).toBe("given-admin-token-0123456789");
    expect(given.tokenSecret).toBe(generated.tokenSecret);
  });
});
