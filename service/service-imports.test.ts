/**
 * The service's layers import downward only: the HTTP edge and the process's wiring on top, then what
 * answers and what reads sources, then the embedding model's work, then the index, the store and the
 * files, then the domain records and the small utilities everything uses.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const serviceRoot = import.meta.dirname;

/** Top to bottom; a module may import its own layer's modules and those of the layers below. */
const layers: ReadonlyArray<readonly string[]> = [
  ["http", "server.ts", "service-app.ts", "runtime.ts", "config.ts", "secrets.ts", "cli", "cli.ts"],
  ["answer", "ingest"],
  ["embedding"],
  ["index", "store", "pdf-slices", "blobs.ts", "blob-sweeper.ts", "data-lock.ts"],
  ["domain.ts", "ids.ts", "logger.ts", "event-loop.ts"],
];

/** What below the HTTP edge may take from the sharing area's wire (sdk/admin): values, never a record. */
const adminWireValues = ["DocumentStatus"];

/** The answer's wire records: only the HTTP edge writes them (ask-stream-lines.ts, wire-reference.ts, wire-records.ts). */
const answerWireRecords = [
  "AskStreamLine",
  "UtteranceLine",
  "DoneLine",
  "StatusLine",
  "ActivityLine",
  "Claim",
  "Reference",
  "RetrievalResult",
  "RagResponse",
];

/** Test support and fault drills, outside the layers: they may reach anything. */
const outside = ["testing", "reliability"];

/** The top-level folder or file of the service a path is in. */
function unitOf(path: string): string {
  return relative(serviceRoot, path).split(sep)[0] ?? "";
}

function layerOf(unit: string): number {
  return layers.findIndex((layer) => layer.includes(unit));
}

function isTestFile(path: string): boolean {
  return /\.test\.ts$/.test(path) || outside.includes(unitOf(path));
}

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : sourceFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") && !isTestFile(path) ? [path] : [];
  });
}

/** The service units a file imports (relative specifiers that stay inside service/). */
function importedUnits(path: string): string[] {
  const info = ts.preProcessFile(readFileSync(path, "utf8"), true, true);
  return info.importedFiles
    .map((file) => file.fileName)
    .filter((specifier) => specifier.startsWith("."))
    .map((specifier) => resolve(dirname(path), specifier))
    .filter((target) => target.startsWith(`${serviceRoot}${sep}`))
    .map(unitOf);
}

/** The names a file imports from modules under `folder` (an absolute path). */
function namesImportedFrom(path: string, folder: string): string[] {
  const source = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest);
  return source.statements.flatMap((statement) => {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) return [];
    const target = resolve(dirname(path), statement.moduleSpecifier.text);
    if (!target.startsWith(`${folder}${sep}`)) return [];
    const bindings = statement.importClause?.namedBindings;
    if (!bindings) return ["(whole module)"];
    if (ts.isNamespaceImport(bindings)) return [`* as ${bindings.name.text}`];
    return bindings.elements.map((element) => (element.propertyName ?? element.name).text);
  });
}

describe("service layers", () => {
  const files = sourceFiles(serviceRoot);

  it("place every folder and top-level file of the service in one layer", () => {
    const units = [...new Set(files.map(unitOf))];
    expect(units.filter((unit) => layerOf(unit) === -1)).toEqual([]);
    expect(files.length).toBeGreaterThan(100);
  });

  it("import only their own layer and the layers below", () => {
    const upward = files.flatMap((path) => {
      const from = unitOf(path);
      return importedUnits(path)
        .filter((unit) => unit !== from && layerOf(unit) < layerOf(from))
        .map((unit) => `${relative(serviceRoot, path)} imports ${unit}`);
    });
    expect(upward).toEqual([]);
  });

  it("have no circle between two folders of one layer", () => {
    const edges = new Set(
      files.flatMap((path) =>
        importedUnits(path)
          .filter((unit) => unit !== unitOf(path))
          .map((unit) => `${unitOf(path)} -> ${unit}`),
      ),
    );
    const circles = [...edges].filter((edge) => {
      const [from, to] = edge.split(" -> ");
      return edges.has(`${to} -> ${from}`);
    });
    expect(circles).toEqual([]);
  });

  it("take no record of the sharing area's wire below the HTTP edge, which alone turns records into it", () => {
    const adminWire = resolve(serviceRoot, "../sdk/admin");
    const records = files
      .filter((path) => layerOf(unitOf(path)) > 0)
      .flatMap((path) =>
        namesImportedFrom(path, adminWire)
          .filter((name) => !adminWireValues.includes(name))
          .map((name) => `${relative(serviceRoot, path)} imports ${name}`),
      );
    expect(records).toEqual([]);
  });

  it("write no record of the answer's wire below the HTTP edge: the domain yields events, the edge the lines", () => {
    const coreWire = resolve(serviceRoot, "../sdk/core");
    const records = files
      .filter((path) => layerOf(unitOf(path)) > 0)
      .flatMap((path) =>
        namesImportedFrom(path, coreWire)
          .filter((name) => answerWireRecords.includes(name) || name.endsWith("Reference"))
          .map((name) => `${relative(serviceRoot, path)} imports ${name}`),
      );
    expect(records).toEqual([]);
  });
});
