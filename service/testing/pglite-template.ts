/**
 * A PGlite cluster initialized once per test run and copied for each new database of the run, as
 * PostgreSQL's own test suite does with its "template" data directory: initdb costs ~5 s of CPU (WASM)
 * each time, and a run starts dozens of databases. The run's global setup makes it and names it in the
 * environment, which the test processes inherit; without it (a script, the benchmark), every new
 * database runs initdb as it does in production.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite, type PGliteOptions } from "@electric-sql/pglite";
import { temporaryDirectory } from "./temporary-directory.ts";

const variable = "CITED_TEST_PGLITE_TEMPLATE";

/** Makes the run's template and names it in `process.env`; the returned function removes it. */
export async function createPgliteTemplate(): Promise<() => void> {
  const directory = mkdtempSync(join(tmpdir(), "cited-pglite-template-"));
  const remove = () => rmSync(directory, { recursive: true, force: true });
  try {
    const database = await PGlite.create({ dataDir: join(directory, "cluster") });
    try {
      const archive = await database.dumpDataDir("none");
      writeFileSync(join(directory, "cluster.tar"), new Uint8Array(await archive.arrayBuffer()));
    } finally {
      await database.close();
    }
  } catch (error) {
    remove();
    throw error;
  }
  process.env[variable] = directory;
  return () => {
    delete process.env[variable];
    remove();
  };
}

const template = (): string | null => {
  const directory = process.env[variable];
  return directory !== undefined && existsSync(directory) ? directory : null;
};

/** Gives a data folder without a cluster a copy of the template's, when the run has one. */
export function seedPgliteDir(dataDir: string): void {
  const directory = template();
  if (directory !== null && !existsSync(join(dataDir, "PG_VERSION")))
    cpSync(join(directory, "cluster"), dataDir, { recursive: true });
}

/** A new temporary folder (see `temporaryDirectory`) holding the template's cluster, when the run has one. */
export function temporaryPgliteDir(prefix: string): string {
  const dataDir = temporaryDirectory(prefix);
  seedPgliteDir(dataDir);
  return dataDir;
}

/** The template's archive, read once per process for its in-memory databases. */
let archive: { directory: string; blob: Blob } | undefined;

/** Options for an in-memory PGlite: the template's cluster to load, when the run has one. */
export function inMemoryPgliteOptions(): PGliteOptions {
  const directory = template();
  if (directory === null) return {};
  if (archive?.directory !== directory)
    archive = { directory, blob: new Blob([readFileSync(join(directory, "cluster.tar"))]) };
  return { loadDataDir: archive.blob };
}
