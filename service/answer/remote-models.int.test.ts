// A real service process whose embeddings and reranker come from model servers: local stand-ins
// (service/testing/model-server-stand-in.ts) speaking OpenAI's embeddings and Cohere's rerank protocols,
// since no model server can run here. The stand-in embeds by counting words of a few topics, so a
// question sharing no word with a sentence can still mean the same thing.
import { randomBytes, randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AdminClient, createAdminClient } from "../../sdk/admin/index.ts";
import type { DocumentRecord } from "../../sdk/admin/schemas.ts";
import { type AnswerState, reduceAnswerText } from "../../sdk/core/index.ts";
import { publicPaths } from "../../sdk/core/service-paths.ts";
import { type AskStreamLine, askStreamLineSchema, ragResponseSchema } from "../../sdk/core/wire.ts";
import { uploadFile } from "../cli/admin-client.ts";
import {
  embeddingsReply,
  readEmbeddingsRequest,
  readRerankRequest,
  rerankReply,
} from "../testing/model-server-replies.ts";
import {
  type ModelServerReply,
  type ModelServerStandIn,
  startModelServerStandIn,
} from "../testing/model-server-stand-in.ts";
import { callPublic } from "../testing/public-api-client.ts";
import { type SpawnedService, spawnService } from "../testing/spawn-service.ts";
import { temporaryDirectory } from "../testing/temporary-directory.ts";

const document = `# Backups

Run the backup tool every night from cron. Enable compression of archives with the gzip flag. Old archives are deleted after thirty days.

# Networking

Interfaces are configured in one file per host. A wired interface gets its address by DHCP.

# Accounts

Add a user account with adduser. Change a password with passwd.
`;
const sentences = {
  compression: "Enable compression of archives with the gzip flag.",
  nightly: "Run the backup tool every night from cron.",
  deletion: "Old archives are deleted after thirty days.",
};

/** Shares no word with the document: only a model finds the compression sentence. */
const meaningOnly = "How can I shrink what gets saved?";
/** Lexically, the deletion sentence answers it best. */
const archivesQuestion = "What happens to old archives of the backup?";

const topics = [
  ["smaller", "shrink", "compress", "compression", "gzip"],
  ["backup", "archives", "saved"],
  ["interfaces", "interface", "wired", "address", "dhcp"],
  ["user", "account", "password", "passwd", "adduser"],
  ["night", "cron", "every"],
];
/** One count per topic, then a constant, so that no text lacks a direction. */
function topicVector(text: string): number[] {
  const words = text.toLowerCase().split(/[^a-z]+/);
  return [...topics.map((topic) => words.filter((word) => topic.includes(word)).length), 0.05];
}
/** Another model: the same counts in other places (topics 0 and 1 where the first model has 2 and 3). */
const reordered = [2, 3, 0, 1, 4, 5];
const reorderedTopicVector = (text: string) => reordered.map((place) => topicVector(text)[place]!);

const embedAs = (text: string, model: string) =>
  model === "topics-reordered" ? reorderedTopicVector(text) : topicVector(text);

interface ServedAssistant {
  service: SpawnedService;
  admin: AdminClient;
  assistantId: string;
  key: string;
}

async function waitFor<Value>(what: string, probe: () => Promise<Value | null>, ms = 20_000): Promise<Value> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const fullyEmbedded = (documents: readonly DocumentRecord[]) =>
  documents.every(
    (record) =>
      record.status === "ready" && (record.passages ?? 0) > 0 && record.passages_embedded === record.passages,
  );

async function serve(env: Record<string, string>, dataDir?: string): Promise<ServedAssistant> {
  const adminToken = randomBytes(24).toString("base64url");
  const service = await spawnService({
    env: { CKA_EMBEDDINGS: "auto", CKA_OCR: "off", CKA_ADMIN_TOKEN: adminToken, ...env },
    ...(dataDir ? { dataDir } : {}),
  });
  const admin = createAdminClient({ baseUrl: service.url, adminToken });
  try {
    const [kept] = await admin.listAssistants();
    const assistantId = kept?.id ?? (await admin.createAssistant("remote models")).id;
    if (!kept) {
      const path = join(temporaryDirectory("cka-remote-"), "operations.md");
      writeFileSync(path, document);
      await uploadFile(admin, assistantId, path);
    }
    await waitFor("the document to be read and embedded", async () =>
      fullyEmbedded(await admin.listDocuments(assistantId)) ? true : null,
    );
    const { key } = await admin.createKey(assistantId, ["ask", "rag"]);
    return { service, admin, assistantId, key };
  } catch (error) {
    await service.stop("SIGKILL");
    throw new Error(`${String(error)}\n${service.logs()}`);
  }
}

interface Answer {
  lines: AskStreamLine[];
  state: AnswerState;
}

async function ask(served: ServedAssistant, message: string): Promise<Answer> {
  const response = await callPublic(served.service.url, {
    path: publicPaths.ask(served.assistantId, randomUUID()),
    key: served.key,
    body: { id_user: "user-1", message, detail_level: "SUCCINCT" },
  });
  expect(response.status).toBe(200);
  const text = await response.text();
  const lines = text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => askStreamLineSchema.parse(JSON.parse(line)));
  return { lines, state: reduceAnswerText(text) };
}

async function rag(served: ServedAssistant, query: string) {
  const response = await callPublic(served.service.url, {
    path: publicPaths.rag(served.assistantId),
    key: served.key,
    body: { query, max_results: 3 },
  });
  expect(response.status).toBe(200);
  return ragResponseSchema.parse(await response.json()).results;
}

const statusMessages = (answer: Answer) =>
  answer.lines.flatMap((line) => (line.type === "status" ? [line.message] : []));
const firstClaim = (answer: Answer) => Object.values(answer.state.claims)[0]?.text ?? "";
const endsDone = (answer: Answer) => answer.lines.at(-1)?.type === "done";

describe("a service whose embeddings and reranker are model servers", () => {
  let embeddings: ModelServerStandIn;
  let reranker: ModelServerStandIn;
  /** What the rerank stand-in does; neutral (every sentence alike) unless a test says otherwise. */
  let rerankWith: (body: unknown) => ModelServerReply = (body) => rerankReply(body, () => 0.5);
  let served: ServedAssistant;

  beforeAll(async () => {
    embeddings = await startModelServerStandIn((request) => embeddingsReply(request.body, embedAs));
    reranker = await startModelServerStandIn((request) => rerankWith(request.body));
    served = await serve({
      CKA_EMBEDDINGS_BASE_URL: embeddings.baseUrl,
      CKA_EMBEDDINGS_MODEL: "topics",
      CKA_RERANK_BASE_URL: reranker.baseUrl,
      CKA_RERANK_MODEL: "test-reranker",
    });
  });
  afterAll(async () => {
    await served?.service.stop("SIGKILL");
    await embeddings?.close();
    await reranker?.close();
  });

  it("finds and cites a sentence that shares no word with the question, by the server's vectors", async () => {
    const [first] = await rag(served, meaningOnly);
    expect(first?.content).toContain(sentences.compression);

    const answer = await ask(served, meaningOnly);
    expect(answer.state.refusal).toBe(false);
    expect(firstClaim(answer)).toContain(sentences.compression);
    expect(
      embeddings.requests.some((request) => readEmbeddingsRequest(request.body).input.includes(meaningOnly)),
    ).toBe(true);
    expect((await served.admin.status()).embedding_model).toBe("remote:topics");
  });

  it("cites first the sentence the reranker ranks first, having sent it every sentence of the passages read", async () => {
    const unranked = await ask(served, archivesQuestion);
    expect(firstClaim(unranked)).toContain(sentences.deletion);

    const sent = reranker.requests.length;
    rerankWith = (body) => rerankReply(body, (_query, text) => (text === sentences.compression ? 0.9 : 0.1));
    const reranked = await ask(served, archivesQuestion);

    expect(firstClaim(reranked)).toContain(sentences.compression);
    const requests = reranker.requests.slice(sent).map((request) => readRerankRequest(request.body));
    expect(requests.map((request) => request.query)).toContain(archivesQuestion);
    expect(requests.flatMap((request) => request.documents)).toEqual(
      expect.arrayContaining(Object.values(sentences)),
    );
  });

  it("neither cites first nor refuses over a sentence the reranker prefers that says too little of what was asked", async () => {
    rerankWith = (body) => rerankReply(body, (_query, text) => (text === sentences.nightly ? 0.9 : 0.1));
    const answer = await ask(served, archivesQuestion);

    expect(answer.state.refusal).toBe(false);
    expect(firstClaim(answer)).not.toContain(sentences.nightly);
  });

  it("answers as without a reranker, and says so, when the reranker fails", async () => {
    rerankWith = () => ({ kind: "json", status: 400, body: { error: "model not loaded" } });
    const answer = await ask(served, archivesQuestion);

    expect(endsDone(answer)).toBe(true);
    expect(statusMessages(answer)).toContain("The reranker is unreachable; choosing sentences without it");
    expect(firstClaim(answer)).toContain(sentences.deletion);
  });

  // Last: the embeddings server stays down for the rest of this service's life.
  it("keeps answering, by words, when the embeddings server goes down mid-session, and says so", async () => {
    rerankWith = (body) => rerankReply(body, () => 0.5);
    await embeddings.close();

    for (const attempt of ["the failing call", "while the service skips the server"]) {
      const answer = await ask(served, archivesQuestion);
      expect(endsDone(answer), attempt).toBe(true);
      expect(statusMessages(answer), attempt).toContain(
        "The model server is unreachable; searching by words only",
      );
      expect(firstClaim(answer), attempt).toContain(sentences.deletion);
    }
    expect((await rag(served, archivesQuestion))[0]?.content).toContain(sentences.deletion);
    expect((await served.admin.status()).search).toBe("lexical");
  });
});

describe("a service whose embeddings server changes model", () => {
  let embeddings: ModelServerStandIn;
  let served: ServedAssistant | undefined;
  beforeAll(async () => {
    embeddings = await startModelServerStandIn((request) => embeddingsReply(request.body, embedAs));
  });
  afterAll(async () => {
    await served?.service.stop("SIGKILL");
    await embeddings?.close();
  });

  it("embeds every passage again with the new model, and searches by its vectors", async () => {
    const dataDir = temporaryDirectory("cka-remote-data-");
    const env = (model: string) => ({
      CKA_EMBEDDINGS_BASE_URL: embeddings.baseUrl,
      CKA_EMBEDDINGS_MODEL: model,
    });
    served = await serve(env("topics"), dataDir);
    expect((await rag(served, meaningOnly))[0]?.content).toContain(sentences.compression);
    expect(await served.service.stop("SIGTERM")).toBe(0);

    const before = embeddings.requests.length;
    served = await serve(env("topics-reordered"), dataDir);
    const current = served;
    // The first model's vectors, searched with the new model's question, would point at another topic.
    const results = await waitFor("the new model's vectors to be searched", async () => {
      const found = await rag(current, meaningOnly);
      return found[0]?.content.includes(sentences.compression) ? found : null;
    });
    expect(results[0]?.content).toContain(sentences.compression);
    const embeddedAgain = embeddings.requests
      .slice(before)
      .map((request) => readEmbeddingsRequest(request.body))
      .filter((request) => request.model === "topics-reordered")
      .flatMap((request) => request.input);
    expect(embeddedAgain).toEqual(expect.arrayContaining(Object.values(sentences)));
    expect((await current.admin.status()).embedding_model).toBe("remote:topics-reordered");
  });
});
