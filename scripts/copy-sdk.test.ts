/** What a host gets from scripts/copy-sdk.ts: the SDK's source only, imports a default tsconfig accepts. */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { copySdk, withoutTsExtensions } from "./copy-sdk.ts";

const folders: string[] = [];
async function emptyFolder(): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), "copy-sdk-"));
  folders.push(folder);
  return path.join(folder, "sdk");
}
afterEach(async () => {
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

describe("copy-sdk", () => {
  it("copies the SDK's source without tests, fixtures, test support or the Supabase adapters", async () => {
    const destination = await emptyFolder();
    const files = await copySdk(destination, []);

    expect(files).toContain("server/create-service-handler.ts");
    expect(files).toContain("react/styles.css");
    expect(files).toContain("server/sql/service-store.sql");
    expect(files.filter((file) => /\.test\.|\.contract\.|fixtures|testing|^sdk-/.test(file))).toEqual([]);
    expect(files.filter((file) => file.includes("supabase"))).toEqual([]);
    const handler = await readFile(path.join(destination, "server", "create-service-handler.ts"), "utf8");
    expect(handler).toContain('from "./service-client"');
    expect(handler).not.toMatch(/from "\.{1,2}\/[^"]+\.tsx?"/);
  });

  it("adds the Supabase adapters when asked, and refuses an adapter it does not know", async () => {
    const files = await copySdk(await emptyFolder(), ["supabase"]);
    expect(files).toContain("adapters/supabase/index.ts");
    expect(files).toContain("adapters/supabase-browser/index.ts");
    await expect(copySdk(await emptyFolder(), ["firebase"])).rejects.toThrow(
      "Unknown adapter firebase; choose from supabase.",
    );
  });

  it("replaces an earlier copy, and refuses a folder holding anything else", async () => {
    const destination = await emptyFolder();
    await copySdk(destination, ["supabase"]);
    const again = await copySdk(destination, []);
    expect(again.some((file) => file.includes("supabase"))).toBe(false);

    const other = await emptyFolder();
    await mkdir(other, { recursive: true });
    await writeFile(path.join(other, "notes.md"), "mine");
    await expect(copySdk(other, [])).rejects.toThrow("holds files that are not an earlier copy of the SDK");
    expect(await readFile(path.join(other, "notes.md"), "utf8")).toBe("mine");

    const file = path.join(path.dirname(other), "a-file");
    await writeFile(file, "mine");
    await expect(copySdk(file, [])).rejects.toThrow("holds files that are not an earlier copy of the SDK");
    expect(await readFile(file, "utf8")).toBe("mine");
  });

  it("refuses to copy into the SDK's own folder or a folder holding it", async () => {
    const sdk = path.resolve(import.meta.dirname, "..", "sdk");
    await expect(copySdk(sdk, [])).rejects.toThrow("is the SDK's own folder or holds it");
    await expect(copySdk(path.dirname(sdk), [])).rejects.toThrow("is the SDK's own folder or holds it");
    await expect(copySdk(path.join(sdk, "copy"), [])).rejects.toThrow("is the SDK's own folder or holds it");
    expect((await readFile(path.join(sdk, "core", "version.ts"), "utf8")).length).toBeGreaterThan(0);
  });

  it("drops .ts and .tsx from relative imports only", () => {
    expect(
      withoutTsExtensions(
        'import { a } from "./a.ts";\nexport * from "../b/c.tsx";\nimport z from "zod";\nconst m = import("./lazy.ts");',
      ),
    ).toBe(
      'import { a } from "./a";\nexport * from "../b/c";\nimport z from "zod";\nconst m = import("./lazy");',
    );
  });
});
