/** `npm run dev`'s demo against a real service: made once, reused on the next run, made anew after a wipe. */
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Writable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { createAdminClient } from "../../sdk/admin/index.ts";
import { rag, testAdminToken } from "../../service/testing/sharing-area.ts";
import { type SpawnedService, spawnService } from "../../service/testing/spawn-service.ts";
import { temporaryDirectory } from "../../service/testing/temporary-directory.ts";
import { sampleFiles } from "./demo-plan.ts";
import { readEnvValues } from "./env-file.ts";
import { type Demo, prepareDemo } from "./prepare-demo.ts";

const repository = resolve(import.meta.dirname, "../..");
const samples = sampleFiles.map((sample) => ({ ...sample, path: join(repository, sample.path) }));

/** What one run printed: its own lines and the progress view's (written as to a pipe, not a terminal). */
interface Run {
  demo: Demo;
  lines: string[];
  progress: string;
}

describe("the demo npm run dev prepares", () => {
  const folder = temporaryDirectory("cited-dev-");
  const envFile = join(folder, ".env.local");
  const services: SpawnedService[] = [];
  afterAll(async () => {
    await Promise.all(services.map((service) => service.stop("SIGKILL")));
  });

  async function startService(): Promise<SpawnedService> {
    const service = await spawnService({ env: { CKA_ADMIN_TOKEN: testAdminToken } });
    services.push(service);
    return service;
  }

  async function run(service: SpawnedService): Promise<Run> {
    const lines: string[] = [];
    let progress = "";
    const out = new Writable({
      write(chunk: Buffer, _encoding, done) {
        progress += chunk.toString();
        done();
      },
    });
    const demo = await prepareDemo(createAdminClient({ baseUrl: service.url, adminToken: testAdminToken }), {
      envFile,
      appOrigin: "http://localhost:3999",
      recordFile: join(folder, "demo.json"),
      samples,
      out: out as unknown as NodeJS.WriteStream,
      log: (line) => lines.push(line),
      ingestTimeoutMs: 60_000,
      console: { url: service.url, adminToken: testAdminToken },
    });
    return { demo, lines, progress };
  }

  const env = () => readEnvValues(readFileSync(envFile, "utf8"));

  it("creates the assistant, ingests every sample ready into its datasource and writes the settings", async () => {
    writeFileSync(envFile, "# mine\nMY_SETTING=keep\n");
    const service = await startService();
    const { demo, lines, progress } = await run(service);

    expect(lines).toContain("creating demo assistant");
    expect(lines).toContain("creating key (scopes ask, rag)");
    for (const name of [
      "debian-uploads-and-bugs.pdf (manuals): ready: 5 pages",
      "backups.md (notes): ready",
      "releases.csv (notes): ready",
      "incident-review.vtt (notes): ready",
    ]) {
      expect(progress).toContain(name);
    }
    expect(progress).toContain("4 ready, 0 failed");

    const values = env();
    expect(values.get("MY_SETTING")).toBe("keep");
    expect(readFileSync(envFile, "utf8")).toMatch(/^# mine\nMY_SETTING=keep\n/);
    expect(values.get("CITED_BASE_URL")).toBe(service.url);
    expect(values.get("CITED_ASSISTANT_ID")).toBe(demo.assistantId);
    expect(values.get("CITED_SESSION_SECRET")).toMatch(/^[0-9a-f]{64}$/);
    expect(values.get("CITED_APP_ORIGIN")).toBe("http://localhost:3999");
    expect(values.get("CITED_DATASOURCES")).toBe(
      `Manuals=${demo.datasources.manuals},Notes=${demo.datasources.notes}`,
    );
    expect(values.get("CITED_ADMIN_URL")).toBe(service.url);
    expect(values.get("CITED_ADMIN_TOKEN")).toBe(testAdminToken);
    expect(JSON.parse(readFileSync(join(folder, "demo.json"), "utf8"))).toEqual(demo);

    // The key answers rag, and the datasource filter keeps the manual out of the notes.
    const key = values.get("CITED_API_KEY") ?? "";
    const everything = await rag(service.url, key, demo.assistantId, { query: "upload" });
    const notes = await rag(service.url, key, demo.assistantId, {
      query: "upload",
      datasource_ids: [demo.datasources.notes ?? ""],
    });
    expect(everything.results.map((result) => result.metadata.file_name)).toContain(
      "debian-uploads-and-bugs.pdf",
    );
    expect(notes.results.map((result) => result.metadata.file_name)).toEqual(["backups.md"]);
  });

  it("reuses the assistant, the documents and the key on the next run", async () => {
    const before = env();
    const { demo, lines } = await run(services[0]!);
    expect(lines).toEqual(
      expect.arrayContaining([
        `reusing demo assistant ${before.get("CITED_ASSISTANT_ID")}`,
        "samples: all 4 files already ingested",
        `reusing key ${demo.keyId}`,
      ]),
    );
    expect(env()).toEqual(before);
  });

  it("creates everything anew when the service's data was wiped, keeping the session secret", async () => {
    const before = env();
    await services[0]!.stop();
    const { demo, lines } = await run(await startService());
    expect(lines).toContain("creating demo assistant");
    expect(lines).toContain("creating key (scopes ask, rag)");
    const after = env();
    expect(demo.assistantId).not.toBe(before.get("CITED_ASSISTANT_ID"));
    expect(after.get("CITED_API_KEY")).not.toBe(before.get("CITED_API_KEY"));
    expect(after.get("CITED_SESSION_SECRET")).toBe(before.get("CITED_SESSION_SECRET"));
    expect(after.get("MY_SETTING")).toBe("keep");
  });
});
