/** Markdown documents: headings, plain sentences, lists, code, tables, images and links. */
import { describe, expect, it } from "vitest";
import { readMarkdown } from "./read-markdown.ts";
import { bytesOf, fixture, sentencesOf } from "./testing/text-fixtures.ts";

const guide = () => readMarkdown("apt-guide.md", fixture("apt-guide.md"), {});
const read = (text: string, datasourceUrl: string | null = null) =>
  readMarkdown("notes.md", bytesOf(text), { datasourceUrl });

describe("readMarkdown", () => {
  it("takes the title from front matter, as plain text", () => {
    expect(guide().title).toBe("Managing packages with apt");
    expect(read("# First *heading*\n\nText.").title).toBe("First heading");
  });

  it("puts each paragraph under its ATX and setext headings", () => {
    const blocks = guide().blocks;
    expect(blocks[0]?.headingPath).toEqual(["Managing packages with apt"]);
    expect(blocks[1]?.headingPath).toEqual(["Managing packages with apt", "Installing packages"]);
    const purge = blocks.find((block) => sentencesOf(block)[0]?.startsWith("apt remove keeps"));
    expect(purge?.headingPath).toEqual([
      "Managing packages with apt",
      "Removing packages",
      "Purge or remove?",
    ]);
  });

  it("strips emphasis, code backticks and link syntax from sentences", () => {
    expect(sentencesOf(guide().blocks[0])).toEqual([
      "The Advanced Package Tool (apt) installs, upgrades and removes software on Debian systems.",
      "It reads its sources from /etc/apt/sources.list, e.g. the main Debian mirror.",
      "See the Debian wiki for details.",
    ]);
    expect(sentencesOf(guide().blocks[1])[0]).toBe(
      "Run apt update first, then install with apt install <package>.",
    );
  });

  it("reads a list as one block, one item's sentences after another", () => {
    const list = guide().blocks[2];
    expect(sentencesOf(list)).toEqual([
      "Refresh the package lists.",
      "Install the package, e.g. apt install nginx.",
      "Confirm with y when asked.",
      "Check the service with systemctl status nginx.",
    ]);
  });

  it("keeps a code block's lines as written", () => {
    expect(sentencesOf(guide().blocks[3])).toEqual(["sudo apt update", "sudo apt install nginx"]);
  });

  it("turns an image with alt text and a title into an image block, its relative path unresolvable without the page's URL", () => {
    const image = guide().blocks.find((block) => block.evidence.kind === "image");
    expect(image?.evidence).toEqual({
      kind: "image",
      url: null,
      alt: "Terminal showing apt install output",
    });
    expect(sentencesOf(image)).toEqual(["Terminal showing apt install output", "Installing nginx with apt"]);
  });

  it("turns a pipe table into a table block with one sentence per row", () => {
    const table = guide().blocks.find((block) => block.evidence.kind === "table");
    expect(table?.evidence).toMatchObject({
      kind: "table",
      columns: ["Command", "Keeps config", "Typical use"],
      rows: [
        ["apt remove", "yes", "Reinstall later"],
        ["apt purge", "no", "Clean slate"],
        ["apt autoremove", "yes", "Drop unused dependencies"],
      ],
      chartHint: { type: "none", x: null, y: [] },
    });
    expect(sentencesOf(table)[1]).toBe("Command: apt purge; Keeps config: no; Typical use: Clean slate");
  });

  it("reads block quotes and drops HTML comments", () => {
    const blocks = guide().blocks;
    expect(sentencesOf(blocks.at(-1))).toEqual([
      "Note: autoremove never removes packages you installed by hand.",
    ]);
    expect(blocks.flatMap(sentencesOf).join(" ")).not.toContain("internal note");
  });

  it("links every prose block to the page when the datasource is a URL", () => {
    const result = read(
      "# Proxies\n\nUse a proxy.\n\n![Proxy diagram](img/p.png)",
      "https://handbook.example.org/apt/",
    );
    expect(result.blocks[0]?.evidence).toEqual({
      kind: "external_link",
      url: "https://handbook.example.org/apt/",
    });
    expect(result.blocks[1]?.evidence).toEqual({
      kind: "image",
      url: "https://handbook.example.org/apt/img/p.png",
      alt: "Proxy diagram",
    });
  });

  it.each([
    ["javascript:alert(1)"],
    ["JaVaScRiPt:alert(document.cookie)"],
    ["vbscript:msgbox(1)"],
    ["data:image/svg+xml;base64,PHN2Zz4="],
    ["file:///etc/passwd"],
  ])("keeps no image address a host could be made to open but http(s): %s", (address) => {
    for (const base of [null, "https://handbook.example.org/apt/"]) {
      const image = read(`![The rack](${address})`, base).blocks.find(
        (block) => block.evidence.kind === "image",
      );
      expect(image?.evidence, String(base)).toEqual({ kind: "image", url: null, alt: "The rack" });
    }
  });

  it("resolves reference links and keeps snake_case words intact", () => {
    const result = read(
      "Read [the manual][man] about max_parallel_downloads.\n\n[man]: https://example.org/man",
    );
    expect(sentencesOf(result.blocks[0])).toEqual(["Read the manual about max_parallel_downloads."]);
  });

  it("reads raw HTML blocks (a centred logo, an HTML table) under the current heading", () => {
    const markdown = [
      "# Mirrors",
      "",
      '<p align="center"><img src="logo.png" alt="Mirror network logo"></p>',
      "",
      "<table>",
      "<tr><th>Region</th><th>Mirrors</th></tr>",
      "",
      "<tr><td>Europe</td><td>24</td></tr>",
      "<tr><td>Asia</td><td>11</td></tr>",
      "</table>",
    ].join("\n");
    const blocks = read(markdown).blocks;
    expect(blocks.map((block) => [block.headingPath, block.evidence.kind])).toEqual([
      [["Mirrors"], "image"],
      [["Mirrors"], "table"],
    ]);
    expect(blocks[1]?.evidence).toMatchObject({ columns: ["Region", "Mirrors"], chartHint: { type: "bar" } });
  });

  it("reads a footnote under the heading it was written under, without its marks", () => {
    const result = read(
      "# Mirrors\n\nUse a mirror.[^1]\n\n[^1]: Closer is faster.\n\n# Proxies\n\nUse a proxy.",
    );
    expect(result.blocks.map((block) => [block.headingPath, sentencesOf(block)])).toEqual([
      [["Mirrors"], ["Use a mirror."]],
      [["Proxies"], ["Use a proxy."]],
      [["Mirrors"], ["Closer is faster."]],
    ]);
  });

  it("skips images with neither alt text nor a title", () => {
    expect(read("Text.\n\n![](spacer.gif)").blocks.map((block) => block.evidence.kind)).toEqual([
      "paragraph",
    ]);
  });
});
