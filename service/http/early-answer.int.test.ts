/** Answers given before a request's body has all arrived (413 and the like): the kept-alive connection must carry the next request. */

import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { Agent, request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAdminClient } from "../../sdk/admin/index.ts";
import { testAdminToken } from "../testing/sharing-area.ts";
import { type SpawnedService, spawnService } from "../testing/spawn-service.ts";

const maxUploadBytes = 1000;
const cli = resolve(import.meta.dirname, "../cli.ts");
let service: SpawnedService;
let assistantId: string;

beforeAll(async () => {
  service = await spawnService({
    env: { CKA_ADMIN_TOKEN: testAdminToken, CKA_OCR: "off", CKA_MAX_UPLOAD_BYTES: String(maxUploadBytes) },
  });
  assistantId = (
    await createAdminClient({ baseUrl: service.url, adminToken: testAdminToken }).createAssistant("Early")
  ).id;
});
afterAll(async () => {
  await service?.stop("SIGKILL");
  if (service) await rm(service.dataDir, { recursive: true, force: true });
});

interface Exchange {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  reusedSocket: boolean;
  /** A failure writing the request or reading the answer, as the client saw it. */
  error: string | null;
}

interface ExchangeOptions {
  method: string;
  path: string;
  headers?: Record<string, string>;
  chunks?: Buffer[];
  gapMs?: number;
}

/** Sends a request through `agent`, its body in `chunks` spaced `gapMs` apart, like a slow uplink. */
function exchange(agent: Agent, options: ExchangeOptions): Promise<Exchange> {
  const chunks = options.chunks ?? [];
  const length = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  return new Promise((resolve) => {
    let answer: Omit<Exchange, "error" | "reusedSocket"> | null = null;
    let written = chunks.length === 0;
    let error: string | null = null;
    let settled = false;
    const request = httpRequest(`${service.url}${options.path}`, {
      agent,
      method: options.method,
      headers: {
        Authorization: `Bearer ${testAdminToken}`,
        ...(chunks.length > 0 ? { "Content-Length": String(length) } : {}),
        ...options.headers,
      },
    });
    const settle = () => {
      if (!settled && (error !== null || (answer && written))) {
        settled = true;
        resolve({ status: 0, headers: {}, body: "", ...answer, reusedSocket: request.reusedSocket, error });
      }
    };
    request.on("error", (failure) => {
      error = failure.message;
      settle();
    });
    request.on("close", () => {
      if (!written) error ??= "the connection closed before the body was sent";
      else if (!answer) error ??= "the connection closed before the answer came";
      settle();
    });
    request.on("response", (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (text: string) => {
        body += text;
      });
      response.on("end", () => {
        answer = { status: response.statusCode ?? 0, headers: response.headers, body };
        settle();
      });
    });
    const writeNext = (index: number) => {
      if (request.destroyed || settled) return;
      const chunk = chunks[index];
      if (!chunk) {
        request.end(() => {
          written = true;
          settle();
        });
        return;
      }
      request.write(chunk);
      setTimeout(() => writeNext(index + 1), options.gapMs ?? 0);
    };
    writeNext(0);
  });
}

/** A multipart upload of one file of `fileBytes` bytes, cut into ten chunks. */
function oversizedUpload(fileBytes: number): { headers: Record<string, string>; chunks: Buffer[] } {
  const boundary = "early-answer-boundary";
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="big.md"\r\nContent-Type: text/markdown\r\n\r\n`,
    ),
    Buffer.alloc(fileBytes, "a"),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const size = Math.ceil(body.length / 10);
  const chunks = Array.from({ length: 10 }, (_, index) => body.subarray(index * size, (index + 1) * size));
  return { headers: { "Content-Type": `multipart/form-data; boundary=${boundary}` }, chunks };
}

/**
 * Sends `request` slowly on a keep-alive connection of its own: it must be refused with 413, and the next
 * request must travel on the same socket. Gives back the refusal.
 */
async function expectRefusedOnAKeptConnection(request: ExchangeOptions): Promise<Exchange> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const refused = await exchange(agent, { ...request, gapMs: 120 });
    expect(refused.error).toBeNull();
    expect(refused.status).toBe(413);
    const next = await exchange(agent, { method: "GET", path: "/admin/v1/limits" });
    expect(next.error).toBeNull();
    expect(next.status).toBe(200);
    // The answer said keep-alive; it must have meant it.
    expect(refused.headers.connection).toBe("keep-alive");
    expect(next.reusedSocket).toBe(true);
    return refused;
  } finally {
    agent.destroy();
  }
}

describe("an answer given before the body has all arrived", () => {
  it("an over-limit upload sent slowly gets 413, and its kept-alive connection carries the next request", async () => {
    const refused = await expectRefusedOnAKeptConnection({
      method: "POST",
      path: `/admin/v1/assistants/${assistantId}/documents`,
      ...oversizedUpload(200_000),
    });
    expect(refused.headers["content-type"]).toMatch(/^application\/problem\+json/);
  });

  it("an oversized JSON body sent slowly gets 413, and its kept-alive connection carries the next request", async () => {
    const body = Buffer.from(JSON.stringify({ name: "x".repeat(100_000) }));
    const size = Math.ceil(body.length / 10);
    await expectRefusedOnAKeptConnection({
      method: "POST",
      path: "/admin/v1/assistants",
      headers: { "Content-Type": "application/json" },
      chunks: Array.from({ length: 10 }, (_, index) => body.subarray(index * size, (index + 1) * size)),
    });
  });
});

describe("cka ingest of a folder holding an over-limit file", () => {
  it("reports that file as refused without sending it, and uploads the files after it", async () => {
    const folder = await mkdtemp(join(tmpdir(), "cka-over-limit-"));
    try {
      await writeFile(join(folder, "a-notes.md"), "# Alpha\n\nThe alpha notes.\n");
      await writeFile(join(folder, "b-huge.md"), Buffer.alloc(2_000_000, "b"));
      await writeFile(join(folder, "c-notes.md"), "# Gamma\n\nThe gamma notes.\n");
      const assistant = (
        await createAdminClient({ baseUrl: service.url, adminToken: testAdminToken }).createAssistant(
          "Folder",
        )
      ).id;
      const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        execFile(
          process.execPath,
          [
            cli,
            "ingest",
            "--assistant",
            assistant,
            folder,
            "--url",
            service.url,
            "--admin-token",
            testAdminToken,
          ],
          { timeout: 60_000 },
          (error, stdout, stderr) => resolve({ code: error ? (error.code as number) : 0, stdout, stderr }),
        );
      });
      expect(run.stderr, run.stdout).toBe("");
      const lines = run.stdout.trimEnd().split("\n");
      expect(lines, run.stdout).toEqual(
        expect.arrayContaining([
          expect.stringMatching(
            new RegExp(
              `^b-huge\\.md: failed: refused unsent: 2000000 bytes.*at most ${maxUploadBytes} bytes`,
            ),
          ),
          expect.stringMatching(/^a-notes\.md: ready/),
          expect.stringMatching(/^c-notes\.md: ready/),
        ]),
      );
      expect(lines.at(-1)).toMatch(/^2 ready, 1 failed;/);
      expect(run.code).toBe(1);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
