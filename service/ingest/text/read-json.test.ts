/** JSON and JSON Lines catalogues: one record per block, readable sentences, errors with line numbers. */
import { describe, expect, it } from "vitest";
import { SourceReadError } from "../types.ts";
import { readJson, readJsonLines } from "./read-json.ts";
import { bytesOf, fixture, sentencesOf } from "./testing/text-fixtures.ts";

const catalogue = () => readJson("packages.json", fixture("packages.json"), {});

describe("readJson", () => {
  it("makes one catalogue record per item of the wrapped list, titled by name", () => {
    const result = catalogue();
    expect(result.title).toBe("Package catalogue");
    expect(result.blocks.map((block) => block.headingPath)).toEqual([["nginx"], ["curl"]]);
    expect(result.blocks[1]?.evidence).toEqual({
      kind: "catalogue_record",
      record: {
        name: "curl",
        version: "7.88.1",
        section: "web",
        maintainer: { name: "Alessandro Ghedini" },
        tags: ["http", "cli"],
        essential: false,
        homepage: null,
      },
    });
  });

  it("renders a record as 'key: value' with dotted keys and joined arrays", () => {
    expect(sentencesOf(catalogue().blocks[1])).toEqual([
      "name: curl; version: 7.88.1; section: web; maintainer.name: Alessandro Ghedini; tags: http, cli; essential: false",
    ]);
  });

  it("gives a long text field its own sentences", () => {
    expect(sentencesOf(catalogue().blocks[0]).slice(1)).toEqual([
      "description: Small, powerful, scalable web/proxy server.",
      "Nginx is a web server with a strong focus on high concurrency, performance and low memory usage.",
      "It can also act as a reverse proxy server for HTTP, HTTPS, SMTP, POP3 and IMAP protocols.",
    ]);
  });

  it("reads a top-level array, and a single object as one record", () => {
    const list = readJson("l.json", bytesOf('[{"title": "A"}, {"title": "B"}, 3]'), {});
    expect(list.blocks.map((block) => block.headingPath)).toEqual([["A"], ["B"], []]);
    expect(list.blocks[2]?.evidence).toEqual({ kind: "catalogue_record", record: { value: 3 } });
    const single = readJson("o.json", bytesOf('{"title": "Mirror policy", "mirrors": [1, 2]}'), {});
    expect(single.title).toBe("Mirror policy");
    expect(sentencesOf(single.blocks[0])).toEqual(["title: Mirror policy; mirrors: 1, 2"]);
  });

  it("names the line and column of a syntax error", () => {
    expect(() => readJson("bad.json", bytesOf('{\n  "name": "nginx",\n  "size": 10,\n}'), {})).toThrow(
      new SourceReadError("The JSON file is not valid at line 4, column 1: expected a key in double quotes."),
    );
    expect(() => readJson("cut.json", bytesOf('[{"name": "nginx"'), {})).toThrow(
      /line 1, column 18: the file ends too early/u,
    );
  });
});

describe("readJsonLines", () => {
  it("makes one record per line, skipping blank lines", () => {
    const result = readJsonLines("packages.jsonl", fixture("packages.jsonl"), {});
    expect(result.blocks.map((block) => block.headingPath)).toEqual([["apt"], ["dpkg"], ["debconf"]]);
    expect(sentencesOf(result.blocks[1])).toEqual([
      "name: dpkg; version: 1.21.22; priority: required; depends: tar, zlib",
    ]);
  });

  it("names the line that is not valid JSON", () => {
    const text = '{"name": "apt"}\n\n{"name": "dpkg", }\n';
    expect(() => readJsonLines("bad.jsonl", bytesOf(text), {})).toThrow(
      new SourceReadError("Malformed JSON Lines at line 3 (column 18): expected a key in double quotes."),
    );
  });
});
