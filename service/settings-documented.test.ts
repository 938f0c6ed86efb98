/** Every CKA_ setting the service and `cka` read is in the README's settings table, so an operator can find it. */
import { globSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const repository = join(import.meta.dirname, "..");

/** The CKA_ names the shipped code of service/ reads (tests and their helpers left out). */
function settingsRead(): string[] {
  const files = globSync("service/**/*.ts", {
    cwd: repository,
    exclude: (path) => /\.test\.ts$|\/testing\/|\/reliability\//.test(path),
  });
  const names = files.flatMap(
    (file) => readFileSync(join(repository, file), "utf8").match(/\bCKA_[A-Z_]+\b/g) ?? [],
  );
  return [...new Set(names)].sort();
}

/** The names in the first column of the README's table of settings. */
function settingsDocumented(): Set<string> {
  const rows = readFileSync(join(repository, "README.md"), "utf8")
    .split("\n")
    .filter((line) => line.startsWith("| `CKA_") || line.startsWith("| `DATABASE_URL"));
  return new Set(rows.flatMap((row) => row.split("|")[1]?.match(/CKA_[A-Z_]+/g) ?? []));
}

describe("the README's settings table", () => {
  it("lists every setting the service and cka read", () => {
    const read = settingsRead();
    expect(read.length).toBeGreaterThan(20);
    const documented = settingsDocumented();
    expect(read.filter((name) => !documented.has(name))).toEqual([]);
  });
});
