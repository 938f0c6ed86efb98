/** CSV and TSV files as a customer exports them: quoting, delimiters, bad lines, chart hints. */
import { describe, expect, it } from "vitest";
import { SourceReadError } from "../types.ts";
import { readCsv, readTsv } from "./read-delimited.ts";
import { bytesOf, fixture, sentencesOf } from "./testing/text-fixtures.ts";

const csv = (text: string) => readCsv("data.csv", bytesOf(text), {});

describe("readCsv", () => {
  it("renders each row as 'column: value' under the header", () => {
    const result = readCsv("monthly-downloads.csv", fixture("monthly-downloads.csv"), {});
    expect(result.title).toBeNull();
    expect(result.blocks).toHaveLength(1);
    expect(sentencesOf(result.blocks[0])[0]).toBe("month: 2024-01; downloads: 15230; unique_visitors: 4100");
    expect(result.blocks[0]?.evidence).toMatchObject({
      kind: "table",
      columns: ["month", "downloads", "unique_visitors"],
    });
  });

  it("suggests a line chart for numbers over dates", () => {
    const result = readCsv("monthly-downloads.csv", fixture("monthly-downloads.csv"), {});
    expect(result.blocks[0]?.evidence).toMatchObject({
      chartHint: { type: "line", x: "month", y: ["downloads", "unique_visitors"] },
    });
  });

  it("sniffs a semicolon delimiter and keeps quoted delimiters, quotes and newlines (CRLF file)", () => {
    const result = readCsv("mirrors.csv", fixture("mirrors.csv"), {});
    const table = result.blocks[0]?.evidence;
    expect(table).toMatchObject({ kind: "table", columns: ["mirror", "country", "size, GB", "notes"] });
    expect(table?.kind === "table" && table.rows).toEqual([
      ["deb.example.org", "Germany", "1200", "primary; fastest"],
      ["ftp.example.fr", "France", "980", 'says "beta" in the banner'],
      ["mirror.example.de", "Germany", "1150", "two\nlines"],
      ["mirror.example.it", "Italy", "870", ""],
    ]);
    expect(sentencesOf(result.blocks[0])[3]).toBe("mirror: mirror.example.it; country: Italy; size, GB: 870");
  });

  it("suggests a bar chart for numbers over a category column", () => {
    const result = readCsv("mirrors.csv", fixture("mirrors.csv"), {});
    expect(result.blocks[0]?.evidence).toMatchObject({
      chartHint: { type: "bar", x: "mirror", y: ["size, GB"] },
    });
  });

  it("groups many rows into blocks of 10–20, repeating the header", () => {
    const rows = Array.from({ length: 47 }, (_, index) => `pkg${index},${index * 3}`);
    const blocks = csv(["package,size", ...rows].join("\n")).blocks;
    expect(blocks.map((block) => block.sentences.length)).toEqual([12, 12, 12, 11]);
    for (const block of blocks) expect(block.evidence).toMatchObject({ columns: ["package", "size"] });
  });

  it("names the line of a quoted value that is never closed", () => {
    expect(() => csv('name,notes\nnginx,"fast\ncurl,ok\n')).toThrow(
      new SourceReadError("Malformed CSV at line 2: a quoted value opened on this line is never closed."),
    );
  });

  it("names the line of a row with more values than the header", () => {
    expect(() => csv("name,size\nnginx,10\ncurl,20,extra\n")).toThrow(
      /line 3: the row has 3 values but the header has 2/u,
    );
  });

  it("names the line of text after a closing quote", () => {
    expect(() => csv('name,size\n"nginx"x,10\n')).toThrow(
      /Malformed CSV at line 2: a closing quote is followed by "x"/u,
    );
  });

  it("pads short rows and says so", () => {
    const result = csv("name,size,section\nnginx,10\ncurl,20,web\n");
    expect(result.warnings).toEqual([
      "1 row has fewer values than the header (first at line 2); the missing values are left empty.",
    ]);
    expect(sentencesOf(result.blocks[0])[0]).toBe("name: nginx; size: 10");
  });

  it("names columns itself when the first row is data", () => {
    const result = csv("1,2\n3,4\n");
    expect(result.blocks[0]?.evidence).toMatchObject({
      columns: ["Column 1", "Column 2"],
      rows: [
        ["1", "2"],
        ["3", "4"],
      ],
    });
  });

  it("follows a spreadsheet's sep= line and keeps line numbers", () => {
    const result = csv("sep=|\nname|size\nnginx|10\n");
    expect(sentencesOf(result.blocks[0])).toEqual(["name: nginx; size: 10"]);
    expect(() => csv('sep=,\nname,size\n"nginx,10\n')).toThrow(/line 3/u);
  });

  it("drops a UTF-8 BOM from the first header", () => {
    const bom = Uint8Array.from([0xef, 0xbb, 0xbf, ...bytesOf("name,size\nnginx,10\n")]);
    expect(readCsv("bom.csv", bom, {}).blocks[0]?.evidence).toMatchObject({ columns: ["name", "size"] });
  });
});

describe("readTsv", () => {
  it("splits on tabs only, so commas stay inside values", () => {
    const result = readTsv("sizes.tsv", bytesOf("package\tdescription\nnginx\tweb server, proxy\n"), {});
    expect(sentencesOf(result.blocks[0])).toEqual(["package: nginx; description: web server, proxy"]);
  });

  it("reads a table of 200,000 rows (a list of that length once overflowed the call stack)", () => {
    const rows = Array.from({ length: 200_000 }, (_, index) => `host-${index},${index % 7}`);
    const result = readCsv("hosts.csv", bytesOf(`host,rack\n${rows.join("\n")}\n`), {});
    const sentences = result.blocks.flatMap((block) => sentencesOf(block));
    expect(sentences).toHaveLength(200_000);
    expect(sentences.at(-1)).toBe("host: host-199999; rack: 2");
  });
});
