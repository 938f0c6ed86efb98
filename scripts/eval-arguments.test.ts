import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { temporaryDirectory } from "../service/testing/temporary-directory.ts";
import { parseEvalArguments } from "./eval-arguments.ts";

/** A folder laid out as the team's development set is. */
function devSet(): string {
  const folder = temporaryDirectory("dev-set-");
  writeFileSync(join(folder, "qa-debian-docs.jsonl"), "");
  mkdirSync(join(folder, "pdfs"));
  return folder;
}

describe("npm run eval's arguments", () => {
  it("take the development set when it is there and no set is named", () => {
    const folder = devSet();
    expect(parseEvalArguments([], folder)).toMatchObject({
      qa: join(folder, "qa-debian-docs.jsonl"),
      sources: join(folder, "pdfs"),
      model: "embedded",
      reranker: "none",
      out: "eval-results",
      all: false,
    });
  });

  it("take any question set over any folder of sources", () => {
    const folder = temporaryDirectory("own-set-");
    writeFileSync(join(folder, "qa.jsonl"), "");
    const parsed = parseEvalArguments(
      ["--qa", join(folder, "qa.jsonl"), "--sources", folder, "--model", "lexical"],
      devSet(),
    );
    expect(parsed).toMatchObject({ qa: join(folder, "qa.jsonl"), sources: folder, model: "lexical" });
  });

  it("say what to pass when there is no development set and no set is named", () => {
    const nowhere = temporaryDirectory("no-dev-set-");
    expect(() => parseEvalArguments([], nowhere)).toThrow(
      /^the development set is not here .*--qa FILE\.jsonl --sources DIR .*docs\/eval\.md.*samples\/qa\.jsonl/,
    );
  });

  it("want --qa and --sources together, and both to exist", () => {
    expect(() => parseEvalArguments(["--qa", "samples/qa.jsonl"], devSet())).toThrow(
      /^--qa and --sources go together/,
    );
    expect(() => parseEvalArguments(["--qa", "nowhere.jsonl", "--sources", "samples"], devSet())).toThrow(
      "--qa nowhere.jsonl does not exist",
    );
  });

  it("refuse a model or reranker they do not know, and an unknown option", () => {
    expect(() => parseEvalArguments(["--model", "large"], devSet())).toThrow(
      "--model is embedded or lexical",
    );
    expect(() => parseEvalArguments(["--reranker", "cohere"], devSet())).toThrow(
      "--reranker is none or oracle",
    );
    expect(() => parseEvalArguments(["--eval", "x"], devSet())).toThrow(/--eval/);
  });
});
