/** Folders for tests and benchmarks, removed when the test file or the process that made them is done. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const made: string[] = [];

/** Removes every folder made so far, with everything in it. */
export function removeTemporaryDirectories(): void {
  for (const directory of made.splice(0)) rmSync(directory, { recursive: true, force: true });
}

// Scripts end by exiting; vitest ends its worker processes without an exit event, hence its setup file.
process.once("exit", removeTemporaryDirectories);

/** A new empty folder under the system's temporary folder; see `removeTemporaryDirectories`. */
export function temporaryDirectory(prefix: string): string {
  const directory = mkdtempSync(join(tmpdir(), prefix));
  made.push(directory);
  return directory;
}
