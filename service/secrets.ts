/**
 * The secrets a service keeps in its data folder (`secrets.json`, mode 0600): the admin token in force and
 * the PDF token signing secret. One reader, checked with zod, for the service, `cka` and scripts.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";

const secretsSchema = z.object({
  adminToken: z.string().min(16),
  tokenSecret: z.string().min(32),
});

export type Secrets = z.infer<typeof secretsSchema>;

const secretsFile = (dataDir: string) => join(dataDir, "secrets.json");

/** The secrets kept in `dataDir`, or null when it keeps none yet; a file that is not valid is an error that names it. */
export function readSecrets(dataDir: string): Secrets | null {
  const path = secretsFile(dataDir);
  if (!existsSync(path)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new Error(`${path} is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  const secrets = secretsSchema.safeParse(parsed);
  if (!secrets.success) throw new Error(`${path} does not hold an adminToken and a tokenSecret`);
  return secrets.data;
}

/** The secrets kept in `dataDir`; an error when it keeps none. */
export function requireSecrets(dataDir: string): Secrets {
  const secrets = readSecrets(dataDir);
  if (secrets === null)
    throw new Error(`${secretsFile(dataDir)} does not exist: start the service on ${dataDir} first`);
  return secrets;
}

/**
 * The secrets of `dataDir`, made once and then kept. An admin token given in the environment replaces the
 * kept one, so the file always holds the token in force: `cka --data` and scripts read it there.
 */
export function keepSecrets(dataDir: string, adminTokenInForce: string | undefined): Secrets {
  mkdirSync(dataDir, { recursive: true });
  const kept = readSecrets(dataDir);
  const made = kept ?? {
    adminToken: randomBytes(24).toString("base64url"),
    tokenSecret: randomBytes(32).toString("base64url"),
  };
  const secrets = { ...made, adminToken: adminTokenInForce ?? made.adminToken };
  if (kept === null || secrets.adminToken !== kept.adminToken) {
    writeFileSync(secretsFile(dataDir), JSON.stringify(secrets), { mode: 0o600 });
  }
  return secrets;
}
