/** sdk/ is copied into host apps as a directory: its code may import only itself and its declared peers. */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { isTestSupport } from "../scripts/copy-sdk.ts";

const sdkRoot = import.meta.dirname;
/** Peers any SDK folder may import. */
const sharedPeers = ["zod", "react", "react-pdf"];
/** Peers only one folder may import: a host that copies sdk/ without that adapter does not need them. */
const folderPeers: Record<string, readonly string[]> = {
  "adapters/supabase": ["@supabase/supabase-js", "jose"],
  "adapters/supabase-browser": ["@supabase/supabase-js"],
};

function peersOf(path: string): string[] {
  const location = relative(sdkRoot, path).split(sep).join("/");
  const own = Object.entries(folderPeers).flatMap(([folder, peers]) =>
    location.startsWith(`${folder}/`) ? peers : [],
  );
  return [...sharedPeers, ...own];
}

function isTestFile(path: string): boolean {
  return isTestSupport(relative(sdkRoot, path).split(sep).join("/"));
}

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") && !isTestFile(path) ? [path] : [];
  });
}

/** Every module specifier of a file: static and dynamic imports, re-exports, `import type`. */
function importsOf(path: string): string[] {
  const info = ts.preProcessFile(readFileSync(path, "utf8"), true, true);
  return info.importedFiles.map((file) => file.fileName);
}

/** Why `specifier` may not be imported from `path`, or null when it may. */
function violation(path: string, specifier: string): string | null {
  if (specifier.startsWith(".")) {
    const target = resolve(dirname(path), specifier);
    return target === sdkRoot || target.startsWith(`${sdkRoot}${sep}`) ? null : "escapes sdk/";
  }
  if (specifier.startsWith("node:")) {
    const inServer = relative(sdkRoot, path).split(sep)[0] === "server";
    return inServer ? null : "a node: builtin outside sdk/server";
  }
  const isPeer = peersOf(path).some((peer) => specifier === peer || specifier.startsWith(`${peer}/`));
  return isPeer ? null : "not a declared peer";
}

describe("sdk imports", () => {
  const files = sourceFiles(sdkRoot);

  it("finds the SDK's source files (and leaves its tests out)", () => {
    const names = files.map((path) => relative(sdkRoot, path));
    expect(names).toEqual(
      expect.arrayContaining([
        "core/index.ts",
        "server/index.ts",
        "browser/index.ts",
        "react/index.ts",
        "adapters/supabase/index.ts",
        "adapters/fetch/index.ts",
        "adapters/supabase-browser/index.ts",
      ]),
    );
    expect(names.some((name) => name.includes(".test."))).toBe(false);
  });

  it("imports nothing outside sdk/ but zod, react, react-pdf, and @supabase/supabase-js and jose in the Supabase adapters", () => {
    const problems = files.flatMap((path) =>
      importsOf(path).flatMap((specifier) => {
        const reason = violation(path, specifier);
        return reason ? [`${relative(sdkRoot, path)}: "${specifier}" (${reason})`] : [];
      }),
    );
    expect(problems).toEqual([]);
  });

  it("catches what it is meant to catch", () => {
    const server = join(sdkRoot, "server", "example.ts");
    const browser = join(sdkRoot, "browser", "example.ts");

    expect(violation(server, "../../service/store/store.ts")).toBe("escapes sdk/");
    expect(violation(server, "pg")).toBe("not a declared peer");
    expect(violation(server, "@electric-sql/pglite")).toBe("not a declared peer");
    expect(violation(browser, "node:fs")).toBe("a node: builtin outside sdk/server");
    expect(violation(browser, "fs")).toBe("not a declared peer");
    expect(violation(server, "node:crypto")).toBeNull();
    expect(violation(server, "@supabase/supabase-js")).toBe("not a declared peer");
    expect(violation(join(sdkRoot, "adapters", "supabase-browser", "example.ts"), "jose")).toBe(
      "not a declared peer",
    );
    expect(violation(browser, "react/jsx-runtime")).toBeNull();
    expect(violation(browser, "../core/index.ts")).toBeNull();

    const supabaseAdapter = join(sdkRoot, "adapters", "supabase", "example.ts");
    const fetchAdapter = join(sdkRoot, "adapters", "fetch", "example.ts");
    expect(violation(supabaseAdapter, "jose")).toBeNull();
    expect(violation(supabaseAdapter, "@supabase/supabase-js")).toBeNull();
    expect(violation(fetchAdapter, "jose")).toBe("not a declared peer");
    expect(violation(server, "jose")).toBe("not a declared peer");
    expect(violation(join(sdkRoot, "adapters", "supabase-extra", "example.ts"), "jose")).toBe(
      "not a declared peer",
    );
    expect(violation(supabaseAdapter, "jose-extra")).toBe("not a declared peer");
    expect(violation(supabaseAdapter, "node:crypto")).toBe("a node: builtin outside sdk/server");
    expect(violation(supabaseAdapter, "../../server/index.ts")).toBeNull();
    expect(
      ts
        .preProcessFile('export * from "a"; import type { B } from "b"; await import("c");', true, true)
        .importedFiles.map((file) => file.fileName),
    ).toEqual(["a", "b", "c"]);
  });
});
