/** `npm run eval`'s command line: which question set over which sources, and how to run the service for it. */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";

export interface EvalArguments {
  /** The JSONL question set (docs/eval.md). */
  qa: string;
  /** The folder of files the questions are about, ingested whole. */
  sources: string;
  out: string;
  refusalThreshold: string | undefined;
  /** `embedded` answers with the embedded model (fetched by `npm run fetch-model`), `lexical` without. */
  model: "embedded" | "lexical";
  /** A data folder kept between runs: the sources are read and embedded once, later runs only ask. */
  data: string | undefined;
  /** Engine settings to try, as JSON (see EngineSettings); for calibration on the odd half. */
  settings: string | undefined;
  /** `oracle` reranks with a local stand-in that scores 1 exactly the sentences holding an answer string. */
  reranker: "none" | "oracle";
  /** Runs the three configurations one after another: lexical, embedded model, embedded model with the oracle. */
  all: boolean;
}

/** Where the team's development set lives beside a checkout, when it is there. */
export const devSetFolder = resolve(import.meta.dirname, "../../shared/eval");

const howToPass =
  "npm run eval -- --qa FILE.jsonl --sources DIR (one question a line, as docs/eval.md describes; " +
  "samples/qa.jsonl over samples/sources is a small example)";

/** The arguments, or an error whose message says what to pass instead. */
export function parseEvalArguments(argv: string[], devSet: string = devSetFolder): EvalArguments {
  const { values } = parseArgs({
    args: argv,
    options: {
      qa: { type: "string" },
      sources: { type: "string" },
      out: { type: "string", default: "eval-results" },
      "refusal-threshold": { type: "string" },
      model: { type: "string", default: "embedded" },
      data: { type: "string" },
      settings: { type: "string" },
      reranker: { type: "string", default: "none" },
      all: { type: "boolean", default: false },
    },
  });
  if (values.model !== "embedded" && values.model !== "lexical")
    throw new Error("--model is embedded or lexical");
  if (values.reranker !== "none" && values.reranker !== "oracle")
    throw new Error("--reranker is none or oracle");
  if ((values.qa === undefined) !== (values.sources === undefined))
    throw new Error(`--qa and --sources go together: ${howToPass}`);
  const devQa = join(devSet, "qa-debian-docs.jsonl");
  if (values.qa === undefined && !existsSync(devQa))
    throw new Error(
      `the development set is not here (${devQa}): pass a question set and the folder of files it is about, ${howToPass}`,
    );
  const qa = values.qa ?? devQa;
  const sources = values.sources ?? join(devSet, "pdfs");
  for (const [flag, path] of [
    ["--qa", qa],
    ["--sources", sources],
  ] as const)
    if (!existsSync(path)) throw new Error(`${flag} ${path} does not exist`);
  return {
    qa,
    sources,
    out: values.out,
    refusalThreshold: values["refusal-threshold"],
    model: values.model,
    data: values.data,
    settings: values.settings,
    reranker: values.reranker,
    all: values.all,
  };
}
