/**
 * `npm run eval`: a question set (the team's dev set by default, or `--qa FILE --sources DIR`) end to end over
 * HTTP against a fresh service; prints and saves the metrics.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { createAdminClient } from "../sdk/admin/index.ts";
import { type AnswerState, reduceAnswerText } from "../sdk/core/index.ts";
import { publicPaths } from "../sdk/core/service-paths.ts";
import { ragResponseSchema } from "../sdk/core/wire.ts";
import { collectFiles, ingestFiles } from "../service/cli/ingest-command.ts";
import { testModelFolder } from "../service/embedding/testing/model.ts";
import { requireSecrets } from "../service/secrets.ts";
import { spawnService } from "../service/testing/spawn-service.ts";
import { parseEvalArguments } from "./eval-arguments.ts";
import { missingDocs, parseQaSet, type QaItem } from "./eval-qa-set.ts";
import {
  citedReferences,
  firstRelevantRank,
  isCitationHit,
  onExpectedPage,
  percentile,
} from "./eval-scoring.ts";
import { type OracleReranker, startOracleReranker } from "./oracle-reranker.ts";

interface EvalRow {
  id: string;
  type: QaItem["type"];
  followUp: boolean;
  question: string;
  ragRank: number | null;
  refused: boolean;
  citationHit: boolean;
  citedOnPage: number;
  cited: number;
  topRelevance: number | null;
  quotes: { page: number | null; doc: string; quote: string }[];
  ragMs: number;
  askMs: number;
  firstLineMs: number | null;
}

interface RelevanceRow {
  type: QaItem["type"];
  refused: boolean;
  topRelevance: number | null;
}

function refusalCurve(rows: readonly RelevanceRow[]) {
  return Array.from({ length: 13 }, (_, step) => {
    const threshold = step * 0.05;
    const refuses = (row: RelevanceRow) => row.refused || (row.topRelevance ?? 0) < threshold;
    const answerable = rows.filter((row) => row.type === "answerable");
    const unanswerable = rows.filter((row) => row.type === "unanswerable");
    return {
      threshold: Math.round(threshold * 100) / 100,
      false_refusals: Math.round((answerable.filter(refuses).length / answerable.length) * 1000) / 1000,
      refusal_recall: Math.round((unanswerable.filter(refuses).length / unanswerable.length) * 1000) / 1000,
    };
  });
}

/** The arguments, the questions and the source files, checked before a service starts; an error says what to fix. */
function prepare() {
  const values = parseEvalArguments(process.argv.slice(2));
  const items = parseQaSet(readFileSync(values.qa, "utf8"), values.qa);
  const sourceFiles = collectFiles([values.sources]);
  const missing = missingDocs(
    items,
    sourceFiles.map((file) => basename(file)),
    values.sources,
  );
  if (missing !== null) throw new Error(missing);
  return { values, items, sourceFiles };
}

let prepared: ReturnType<typeof prepare>;
try {
  prepared = prepare();
} catch (error) {
  console.error(`npm run eval: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(2);
}
const { values, items, sourceFiles } = prepared;
/** One assistant per sources folder, found again by name in a kept data folder. */
const assistantName = `Eval: ${resolve(values.sources)}`.slice(0, 200);

interface Mode {
  model: "embedded" | "lexical";
  reranker: "none" | "oracle";
}

const modeName = (mode: Mode) => (mode.reranker === "oracle" ? `${mode.model}-oracle` : mode.model);

/** One configuration over the question set: its metrics, whole and by half, written to the output folder. */
async function evaluate(mode: Mode) {
  const env: Record<string, string> = { CKA_RATE_LIMIT_PER_MINUTE: "100000" };
  if (mode.model === "embedded") {
    env.CKA_EMBEDDINGS = "auto";
    env.CKA_EMBEDDING_MODEL_DIR = testModelFolder();
  }
  if (values.refusalThreshold) env.CKA_REFUSAL_THRESHOLD = values.refusalThreshold;
  if (values.settings) env.CKA_ENGINE_SETTINGS = values.settings;
  if (values.data) mkdirSync(values.data, { recursive: true });
  const oracle: OracleReranker | null = mode.reranker === "oracle" ? await startOracleReranker(items) : null;
  if (oracle) {
    env.CKA_RERANK_BASE_URL = oracle.baseUrl;
    env.CKA_RERANK_MODEL = "oracle";
  }
  const service = await spawnService({ env, ...(values.data ? { dataDir: resolve(values.data) } : {}) });
  try {
    const admin = createAdminClient({
      baseUrl: service.url,
      adminToken: requireSecrets(service.dataDir).adminToken,
    });
    const kept = (await admin.listAssistants()).find((assistant) => assistant.name === assistantName);
    const assistant = kept ?? (await admin.createAssistant(assistantName));
    const key = await admin.createKey(assistant.id, ["ask", "rag"], "eval");
    const ingest = kept
      ? { failed: 0, pages: Number.NaN, seconds: Number.NaN }
      : await ingestFiles(admin, {
          assistant: assistant.id,
          paths: sourceFiles,
          out: process.stderr,
        });
    if (ingest.failed > 0) throw new Error(`${ingest.failed} source files failed to ingest`);
    const embedStarted = performance.now();
    if (mode.model === "embedded") {
      for (;;) {
        const status = await admin.status();
        if (status.search === "semantic") break;
        if (status.search === "lexical") throw new Error(`the service runs lexical only: ${status.detail}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      for (;;) {
        const documents = await admin.listDocuments(assistant.id);
        const done = documents.reduce((sum, document) => sum + (document.passages_embedded ?? 0), 0);
        const total = documents.reduce((sum, document) => sum + (document.passages ?? 0), 0);
        process.stderr.write(`\rembedding: ${done} of ${total} passages`);
        if (done === total) break;
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
      process.stderr.write("\n");
    }
    const embedSeconds = (performance.now() - embedStarted) / 1000;

    const headers = {
      Authorization: `Bearer ${key.key}`,
      "X-App-Code": "selfserve",
      "Content-Type": "application/json",
    };
    const sessions = new Map<string, string>();
    const rows: EvalRow[] = [];
    for (const item of items) {
      const ragStarted = performance.now();
      const ragResponse = await fetch(`${service.url}${publicPaths.rag(assistant.id)}`, {
        method: "POST",
        headers,
        body: JSON.stringify({ query: item.question.slice(0, 500), max_results: 10 }),
      });
      const rag = ragResponseSchema.parse(await ragResponse.json());
      const ragMs = performance.now() - ragStarted;

      const session = item.follow_up_of ? sessions.get(item.follow_up_of)! : crypto.randomUUID();
      sessions.set(item.id, session);
      const askStarted = performance.now();
      const askResponse = await fetch(`${service.url}${publicPaths.ask(assistant.id, session)}`, {
        method: "POST",
        headers,
        body: JSON.stringify({ id_user: "eval-user", message: item.question }),
      });
      const reader = askResponse.body!.getReader();
      const decoder = new TextDecoder();
      let text = "";
      let firstLineMs: number | null = null;
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) break;
        text += decoder.decode(chunk.value, { stream: true });
        if (firstLineMs === null && text.includes("\n")) firstLineMs = performance.now() - askStarted;
      }
      const askMs = performance.now() - askStarted;
      const answer: AnswerState = reduceAnswerText(text);
      const cited = citedReferences(answer);
      const rank = item.type === "answerable" ? firstRelevantRank(rag.results, item) : null;
      rows.push({
        id: item.id,
        type: item.type,
        followUp: Boolean(item.follow_up_of),
        question: item.question,
        ragRank: rank,
        refused: answer.refusal,
        citationHit: item.type === "answerable" && cited.some((reference) => isCitationHit(reference, item)),
        citedOnPage: cited.filter(
          (reference) => item.type === "answerable" && onExpectedPage(reference, item),
        ).length,
        cited: cited.length,
        topRelevance: Object.values(answer.claims)[0]?.relevance ?? null,
        quotes: cited.map((reference) => ({
          page: reference.kind === "pdf_highlight" ? reference.page_index + 1 : null,
          doc: reference.title,
          quote: reference.quote.slice(0, 240),
        })),
        ragMs,
        askMs,
        firstLineMs,
      });
    }

    const askMetrics = (subset: readonly EvalRow[]) => {
      const answerable = subset.filter((row) => row.type === "answerable");
      const standalone = answerable.filter((row) => !row.followUp);
      const unanswerable = subset.filter((row) => row.type === "unanswerable");
      const share = (part: number, whole: number) => (whole ? Math.round((part / whole) * 1000) / 1000 : 0);
      const hitAt = (list: typeof answerable, k: number) =>
        share(list.filter((row) => row.ragRank !== null && row.ragRank <= k).length, list.length);
      const answered = answerable.filter((row) => !row.refused);
      return {
        items: subset.length,
        rag: {
          standalone: {
            count: standalone.length,
            hit1: hitAt(standalone, 1),
            hit5: hitAt(standalone, 5),
            hit10: hitAt(standalone, 10),
          },
          all_answerable: {
            count: answerable.length,
            hit1: hitAt(answerable, 1),
            hit5: hitAt(answerable, 5),
            hit10: hitAt(answerable, 10),
          },
          mrr10: share(
            answerable.reduce((sum, row) => sum + (row.ragRank ? 1 / row.ragRank : 0), 0),
            answerable.length,
          ),
        },
        ask: {
          citation_hit: share(answerable.filter((row) => row.citationHit).length, answerable.length),
          citation_hit_follow_ups: share(
            answerable.filter((row) => row.followUp && row.citationHit).length,
            answerable.filter((row) => row.followUp).length,
          ),
          citation_precision: share(
            answered.reduce((sum, row) => sum + row.citedOnPage, 0),
            answered.reduce((sum, row) => sum + row.cited, 0),
          ),
          false_refusals: share(answerable.filter((row) => row.refused).length, answerable.length),
          refusal_recall: share(unanswerable.filter((row) => row.refused).length, unanswerable.length),
        },
      };
    };
    // Parameters are fitted on the odd ids and reported on the even ones as well as on the whole.
    const idNumber = (row: EvalRow) => Number(row.id.replace(/\D/g, ""));
    const latency = (of: (row: EvalRow) => number, share: number) => percentile(rows.map(of), share);
    const metrics = {
      model: mode.model,
      reranker: mode.reranker,
      ...(oracle ? { oracle_reranker: oracle.report() } : {}),
      ...askMetrics(rows),
      halves: {
        odd_ids: askMetrics(rows.filter((row) => idNumber(row) % 2 === 1)),
        even_ids: askMetrics(rows.filter((row) => idNumber(row) % 2 === 0)),
      },
      latency_ms: {
        rag_p50: latency((row) => row.ragMs, 0.5),
        rag_p95: latency((row) => row.ragMs, 0.95),
        ask_p50: latency((row) => row.askMs, 0.5),
        ask_p95: latency((row) => row.askMs, 0.95),
        first_line_p50: latency((row) => row.firstLineMs ?? 0, 0.5),
      },
      ingest: {
        pages: ingest.pages,
        seconds: Math.round(ingest.seconds * 10) / 10,
        ...(mode.model === "embedded" ? { embedded_after_seconds: Math.round(embedSeconds * 10) / 10 } : {}),
      },
      // With --refusal-threshold 0 every answer keeps its best claim, so any higher threshold can be replayed.
      ...(values.refusalThreshold === "0" ? { refusal_curve: refusalCurve(rows) } : {}),
    };
    mkdirSync(values.out, { recursive: true });
    const file = join(values.out, values.all ? `eval-${modeName(mode)}.json` : "eval-latest.json");
    writeFileSync(file, JSON.stringify({ metrics, rows }, null, 2));
    console.log(JSON.stringify(metrics, null, 2));
    console.log(`rows written to ${file}`);
    return metrics;
  } finally {
    await service.stop();
    await oracle?.close();
  }
}

const modes: Mode[] = values.all
  ? [
      { model: "lexical", reranker: "none" },
      { model: "embedded", reranker: "none" },
      { model: "embedded", reranker: "oracle" },
    ]
  : [{ model: values.model, reranker: values.reranker }];
const results = [];
for (const mode of modes) results.push({ mode: modeName(mode), metrics: await evaluate(mode) });
if (values.all) {
  // One line per configuration and half: what the targets are read against.
  const line = (
    name: string,
    part: { rag: { all_answerable: { hit5: number } }; ask: Record<string, number> },
  ) =>
    `${name.padEnd(26)} rag hit@5 ${part.rag.all_answerable.hit5.toFixed(2)}  citation hit ${part.ask.citation_hit?.toFixed(2)}  precision ${part.ask.citation_precision?.toFixed(3)}  false refusals ${part.ask.false_refusals?.toFixed(2)}  refusal recall ${part.ask.refusal_recall?.toFixed(2)}`;
  for (const { mode, metrics } of results) {
    console.log(line(`${mode} whole`, metrics));
    console.log(line(`${mode} odd ids`, metrics.halves.odd_ids));
    console.log(line(`${mode} even ids`, metrics.halves.even_ids));
  }
}
