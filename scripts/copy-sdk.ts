/**
 * Copies the SDK into a host app: the SDK's source without its tests, fixtures and test support, and the
 * Supabase adapters only when asked for. Its relative imports lose their `.ts` extensions on the way, so the
 * copy compiles under a Next.js app's default tsconfig (which does not allow importing `.ts` paths); the
 * repository keeps them because Node runs the service's imports of the SDK as written.
 *
 *   node scripts/copy-sdk.ts <destination> [--adapter supabase]
 */
import { cp, mkdir, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";

const sdkRoot = path.resolve(import.meta.dirname, "..", "sdk");
const optionalAdapters: Record<string, readonly string[]> = {
  supabase: ["adapters/supabase", "adapters/supabase-browser"],
};

/**
 * Tests, recorded fixtures and test support (by a path relative to sdk/, "/"-separated): they need dev tools or
 * code outside sdk/, so a host never gets them, and sdk-imports.test.ts lets them import anything.
 */
export function isTestSupport(relativePath: string): boolean {
  const parts = relativePath.split("/");
  return (
    /\.(test|contract)\.tsx?$/.test(relativePath) || parts.includes("fixtures") || parts.includes("testing")
  );
}

const relativeSpecifier = /((?:from|import)\s*\(?\s*["'])(\.{1,2}\/[^"']+?)\.tsx?(["'])/g;

/** `./x.ts` → `./x`: resolved by any bundler and by TypeScript's `bundler` resolution. */
export function withoutTsExtensions(source: string): string {
  return source.replace(relativeSpecifier, "$1$2$3");
}

async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

/** The files a host copies, relative to sdk/. */
async function sdkFiles(adapters: readonly string[]): Promise<string[]> {
  const left = Object.entries(optionalAdapters)
    .filter(([name]) => !adapters.includes(name))
    .flatMap(([, folders]) => folders);
  // Relative paths with "/" on every system, as the adapters' folders are written.
  const files = (await filesUnder(sdkRoot)).map((file) =>
    path.relative(sdkRoot, file).split(path.sep).join("/"),
  );
  return files
    .filter((file) => !isTestSupport(file))
    .filter((file) => !left.some((folder) => file.startsWith(`${folder}/`)))
    .sort();
}

/** An absent or empty folder, or one holding an earlier copy (its `core/version.ts`). */
async function isEarlierCopy(destination: string): Promise<boolean> {
  const found = await stat(destination).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return null;
    throw error;
  });
  if (found === null) return true;
  if (!found.isDirectory()) return false;
  if ((await readdir(destination)).length === 0) return true;
  return stat(path.join(destination, "core", "version.ts")).then(
    (version) => version.isFile(),
    () => false,
  );
}

/** Whether one of the two folders is the other or holds it: copying there would delete the SDK itself. */
function overlaps(destination: string): boolean {
  const inside = (child: string, parent: string) => {
    const relative = path.relative(parent, child);
    return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
  };
  return inside(destination, sdkRoot) || inside(sdkRoot, destination);
}

export async function copySdk(destination: string, adapters: readonly string[]): Promise<string[]> {
  const unknown = adapters.filter((name) => !(name in optionalAdapters));
  if (unknown.length > 0) {
    throw new Error(
      `Unknown adapter ${unknown.join(", ")}; choose from ${Object.keys(optionalAdapters).join(", ")}.`,
    );
  }
  if (overlaps(destination)) {
    throw new Error(`${destination} is the SDK's own folder or holds it; copy into your app instead.`);
  }
  if (!(await isEarlierCopy(destination))) {
    throw new Error(
      `${destination} holds files that are not an earlier copy of the SDK; choose an empty folder.`,
    );
  }
  await rm(destination, { recursive: true, force: true });
  const files = await sdkFiles(adapters);
  for (const file of files) {
    const from = path.join(sdkRoot, ...file.split("/"));
    const to = path.join(destination, ...file.split("/"));
    await mkdir(path.dirname(to), { recursive: true });
    if (/\.tsx?$/.test(file)) await writeFile(to, withoutTsExtensions(await readFile(from, "utf8")));
    else await cp(from, to);
  }
  return files;
}

if (import.meta.main) {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { adapter: { type: "string", multiple: true, default: [] } },
  });
  const [destination] = positionals;
  if (!destination || positionals.length > 1) {
    console.error("usage: node scripts/copy-sdk.ts <destination> [--adapter supabase]");
    process.exit(2);
  }
  try {
    const files = await copySdk(path.resolve(destination), values.adapter);
    console.log(`Copied ${files.length} files of the SDK to ${destination}.`);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
