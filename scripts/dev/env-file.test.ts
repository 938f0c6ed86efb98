import { describe, expect, it } from "vitest";
import { readEnvValues, rewriteEnvText } from "./env-file.ts";

const heading = "Written by npm run dev";

describe("rewriting .env.local", () => {
  it("creates the file's lines under a heading when there was no file", () => {
    expect(rewriteEnvText("", { CITED_ASSISTANT_ID: "asst_a", CITED_API_KEY: "k" }, heading)).toBe(
      "# Written by npm run dev\nCITED_ASSISTANT_ID=asst_a\nCITED_API_KEY=k\n",
    );
  });

  it("keeps the user's own lines, comments and blank lines exactly as they were", () => {
    const text = [
      "# my settings",
      "CITED_LLM_HINT='keep me'",
      "",
      "export OTHER=1 # a comment",
      "CITED_ASSISTANT_ID=asst_old",
      "NEXT_TELEMETRY_DISABLED=1",
      "",
    ].join("\n");
    const rewritten = rewriteEnvText(text, { CITED_ASSISTANT_ID: "asst_new" }, heading);
    expect(rewritten).toBe(
      [
        "# my settings",
        "CITED_LLM_HINT='keep me'",
        "",
        "export OTHER=1 # a comment",
        "CITED_ASSISTANT_ID=asst_new",
        "NEXT_TELEMETRY_DISABLED=1",
        "",
      ].join("\n"),
    );
  });

  it("replaces a key where the user put it and appends only the keys the file lacks", () => {
    const text = "A=1\nCITED_API_KEY=old\nB=2";
    expect(rewriteEnvText(text, { CITED_API_KEY: "new", CITED_BASE_URL: "http://x" }, heading)).toBe(
      "A=1\nCITED_API_KEY=new\nB=2\n\n# Written by npm run dev\nCITED_BASE_URL=http://x\n",
    );
  });

  it("drops later repeats of a rewritten key, which dotenv would let win over the new value", () => {
    const text = "CITED_API_KEY=one\nA=1\nCITED_API_KEY=two\n";
    expect(rewriteEnvText(text, { CITED_API_KEY: "three" }, heading)).toBe("CITED_API_KEY=three\nA=1\n");
  });

  it("leaves a line alone when it already holds the value, however the user quoted it", () => {
    const text = 'export CITED_ASSISTANT_ID="asst_a"\n';
    expect(rewriteEnvText(text, { CITED_ASSISTANT_ID: "asst_a" }, heading)).toBe(text);
  });

  it("adds a key a later version writes to the block an earlier run wrote, not under a second heading", () => {
    const earlier = rewriteEnvText("USER=me\n", { CITED_API_KEY: "k" }, heading);
    const text = `${earlier}\nMINE=1\n`;
    expect(rewriteEnvText(text, { CITED_API_KEY: "k", CITED_DATASOURCES: "Notes=ds_a" }, heading)).toBe(
      "USER=me\n\n# Written by npm run dev\nCITED_API_KEY=k\nCITED_DATASOURCES=Notes=ds_a\n\nMINE=1\n",
    );
  });

  it("is stable: a second run over its own output changes nothing", () => {
    const values = { CITED_ASSISTANT_ID: "asst_a", CITED_API_KEY: "k" };
    const once = rewriteEnvText("USER=me\n", values, heading);
    expect(rewriteEnvText(once, values, heading)).toBe(once);
  });

  it("keeps Windows line ends in a file that uses them", () => {
    expect(rewriteEnvText("A=1\r\nCITED_API_KEY=old\r\n", { CITED_API_KEY: "new" }, heading)).toBe(
      "A=1\r\nCITED_API_KEY=new\r\n",
    );
  });
});

describe("reading .env.local", () => {
  it("reads values as dotenv does: quotes and trailing comments removed, the last repeat wins", () => {
    const values = readEnvValues(
      ["A=plain # note", "B='single'", 'export C="double"', "# D=commented", "A=again", "E="].join("\n"),
    );
    expect(Object.fromEntries(values)).toEqual({ A: "again", B: "single", C: "double", E: "" });
  });
});
