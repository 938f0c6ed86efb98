import { describe, expect, it } from "vitest";
import { analyze, analyzeQuery } from "./analyzer.ts";

describe("analyze", () => {
  it("stems so that inflected forms share a term", () => {
    expect(analyze("removing")).toEqual(analyze("removed"));
    expect(analyze("Packages")).toEqual(["packag"]);
  });

  it("drops Lucene's English stop words and keeps other short words", () => {
    expect(analyze("The cat is on the mat")).toEqual(["cat", "mat"]);
    expect(analyze("what about you")).toEqual(["what", "about", "you"]);
  });

  it("folds case and compatibility characters (NFKC)", () => {
    expect(analyze("ＦＩＬＥ ﬁle File")).toEqual(["file", "file", "file"]);
    expect(analyze("café")).toEqual(analyze("cafe\u0301"));
  });

  it("indexes hyphenated, dotted and snake_case names by their parts and joined", () => {
    expect(analyze("apt-get")).toEqual(["apt", "get", "aptget"]);
    expect(analyze("sources.list")).toEqual(["sourc", "list", "sourceslist"]);
    expect(analyze("max_connections")).toEqual(["max", "connect", "maxconnect"]);
    expect(analyze("pre-processing")).toContain(analyze("preprocessing")[0]);
  });

  it("treats sentence punctuation and paths as separators", () => {
    expect(analyze("Edit it. Then save, /etc/hosts")).toEqual(["edit", "save", "etc", "host"]);
  });

  it("drops the English possessive", () => {
    expect(analyze("the user's files")).toEqual(["user", "file"]);
  });

  it("keeps words of other scripts whole, combining marks included", () => {
    expect(analyze("हिन्दी ελληνικά")).toEqual(["हिन्दी", "ελληνικά"]);
  });
});

describe("analyzeQuery", () => {
  it("counts repeated words once with a higher weight", () => {
    expect(analyzeQuery("remove removed the files")).toEqual([
      { term: "remov", weight: 2 },
      { term: "file", weight: 1 },
    ]);
  });

  it("returns nothing for an empty or stop-word query", () => {
    expect(analyzeQuery("")).toEqual([]);
    expect(analyzeQuery("  the of , and ")).toEqual([]);
  });
});
