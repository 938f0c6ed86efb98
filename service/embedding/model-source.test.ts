import { createReadStream, existsSync, readdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { temporaryDirectory } from "../testing/temporary-directory.ts";
import { cacheFolderName, minilm } from "./minilm.ts";
import { locateModel, type ModelProgress } from "./model-source.ts";
import { testModelFolder } from "./testing/model.ts";

let server: Server | null = null;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = null;
});

/** A hub stand-in: serves the model's files at the pinned revision's paths, `tamper`ing with one if asked. */
async function hubStandIn(tamper?: string): Promise<{ url: string; requests: string[] }> {
  const requests: string[] = [];
  const prefix = `/${minilm.repository}/resolve/${minilm.revision}/`;
  server = createServer((request, response) => {
    requests.push(request.url ?? "");
    const name = request.url?.startsWith(prefix) ? request.url.slice(prefix.length) : "";
    if (!minilm.files.some((file) => file.name === name)) return void response.writeHead(404).end();
    if (name === tamper) return void response.end("{}");
    createReadStream(join(testModelFolder(), name)).pipe(response);
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, requests };
}

describe("where the embedded model comes from", () => {
  it("takes a folder the operator names when its files match their pins", async () => {
    const cache = temporaryDirectory("cka-model-");
    const located = await locateModel({
      folder: testModelFolder(),
      cacheDir: cache,
      hubUrl: null,
      pip: null,
    });
    expect(located).toEqual({ found: true, folder: testModelFolder(), source: "folder" });
  });

  it("downloads from the hub at the pinned revision with progress, keeps it in the cache and uses the cache next time", async () => {
    const cache = temporaryDirectory("cka-model-");
    const hub = await hubStandIn();
    const progress: ModelProgress[] = [];
    const located = await locateModel({
      cacheDir: cache,
      hubUrl: hub.url,
      pip: null,
      onProgress: (event) => progress.push(event),
    });
    expect(located).toEqual({ found: true, folder: join(cache, cacheFolderName), source: "hub" });
    expect(progress.at(-1)).toMatchObject({
      source: "hub",
      file: "tokenizer.json",
      bytes: 466_247,
      total: 466_247,
    });
    expect(progress.filter((event) => event.file === "model.safetensors").length).toBeGreaterThan(5);
    const again = await locateModel({ cacheDir: cache, hubUrl: hub.url, pip: null });
    expect(again).toMatchObject({ found: true, source: "cache" });
    expect(hub.requests).toHaveLength(minilm.files.length);
  });

  it("keeps nothing from a hub whose file differs from its pin, and says why", async () => {
    const cache = temporaryDirectory("cka-model-");
    const hub = await hubStandIn("tokenizer.json");
    const located = await locateModel({ cacheDir: cache, hubUrl: hub.url, pip: null });
    expect(located.found).toBe(false);
    if (located.found) return;
    expect(located.reasons.join("\n")).toMatch(/tokenizer\.json has SHA-256 [0-9a-f]{64}, expected be50c362/);
    expect(existsSync(join(cache, cacheFolderName))).toBe(false);
    expect(readdirSync(cache)).toEqual([]);
  });

  it("gives up on a hub that stops sending mid-file, keeping nothing, and says so", async () => {
    const cache = temporaryDirectory("cka-model-");
    server = createServer((_request, response) => {
      response.writeHead(200, { "Content-Length": String(minilm.files[0]!.bytes) });
      response.write(Buffer.alloc(1024));
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const started = Date.now();
    const located = await locateModel({
      cacheDir: cache,
      hubUrl: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`,
      pip: null,
      hubTimeoutMs: 500,
    });
    expect(located.found).toBe(false);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(readdirSync(cache)).toEqual([]);
  });

  it("refuses a named folder with a wrong file and falls through to the next source", async () => {
    const cache = temporaryDirectory("cka-model-");
    const located = await locateModel({
      folder: cache,
      cacheDir: join(cache, "models"),
      hubUrl: "http://127.0.0.1:9",
      pip: null,
      hubTimeoutMs: 2000,
    });
    expect(located.found).toBe(false);
    if (located.found) return;
    expect(located.reasons[0]).toMatch(/^CKA_EMBEDDING_MODEL_DIR: .*model\.safetensors is missing$/);
    expect(located.reasons[2]).toMatch(/^hub http:\/\/127\.0\.0\.1:9: /);
  });
});
