/** Saved web pages: main content, headings, links, figures, tables and declared charsets. */
import { describe, expect, it } from "vitest";
import { readHtml } from "./read-html.ts";
import { bytesOf, fixture, sentencesOf } from "./testing/text-fixtures.ts";

const page = (datasourceUrl: string | null = null) =>
  readHtml("proxies.html", fixture("saved-page.html"), { datasourceUrl });
const read = (html: string) => readHtml("page.html", bytesOf(html), {});

describe("readHtml", () => {
  it("keeps no image address but http(s), whatever the page's src says", () => {
    const html = `<body><p>Racks.</p><img src="javascript:alert(1)" alt="The rack"><img src="vbscript:x" alt="The shelf"></body>`;
    const images = read(html).blocks.filter((block) => block.evidence.kind === "image");
    expect(images.map((block) => block.evidence)).toEqual([
      { kind: "image", url: null, alt: "The rack" },
      { kind: "image", url: null, alt: "The shelf" },
    ]);
  });

  it("takes the title from <title>, with entities decoded", () => {
    expect(page().title).toBe("Configuring APT proxies — Admin Handbook");
    expect(read("<body><h1>Only a <em>heading</em></h1><p>Text.</p></body>").title).toBe("Only a heading");
  });

  it("reads only the main content: no script, style, navigation or footer", () => {
    const text = page().blocks.flatMap(sentencesOf).join(" ");
    expect(text).not.toMatch(/analytics|font-family|Home|Example Org/u);
    expect(sentencesOf(page().blocks[0])).toEqual([
      "APT can fetch packages through an HTTP proxy.",
      "Put the setting in /etc/apt/apt.conf.d/95proxy & restart nothing – it is read on each run.",
    ]);
  });

  it("carries h1–h6 headings, without permalink marks", () => {
    const blocks = page().blocks;
    expect(blocks[0]?.headingPath).toEqual(["Configuring APT proxies"]);
    expect(blocks[2]?.headingPath).toEqual(["Configuring APT proxies", "Settings"]);
  });

  it("links blocks to the canonical URL, or to the datasource URL when given", () => {
    expect(page().blocks[0]?.evidence).toEqual({
      kind: "external_link",
      url: "https://handbook.example.org/apt/proxies",
    });
    expect(page("https://mirror.example.com/saved/proxies").blocks[0]?.evidence).toEqual({
      kind: "external_link",
      url: "https://mirror.example.com/saved/proxies",
    });
    expect(read("<p>No address known.</p>").blocks[0]?.evidence).toEqual({ kind: "paragraph" });
  });

  it("falls back to og:url when there is no canonical link", () => {
    const html = '<head><meta property="og:url" content="https://example.org/a"></head><p>Text.</p>';
    expect(read(html).blocks[0]?.evidence).toEqual({ kind: "external_link", url: "https://example.org/a" });
  });

  it("reads a list as one block, items in order", () => {
    expect(sentencesOf(page().blocks[2])).toEqual([
      'HTTP proxy: Acquire::http::Proxy "http://proxy:3128";',
      "HTTPS proxy, e.g. for security updates.",
    ]);
  });

  it("turns a figure into an image block with its caption, address resolved", () => {
    const figure = page().blocks.find((block) => block.evidence.kind === "image");
    expect(figure?.evidence).toEqual({
      kind: "image",
      url: "https://handbook.example.org/img/proxy-diagram.png",
      alt: "Diagram of APT traffic through a proxy",
    });
    expect(sentencesOf(figure)).toEqual([
      "Diagram of APT traffic through a proxy",
      "APT clients send every request to the proxy, which caches packages.",
    ]);
  });

  it("reads a data table with its caption as the nearest heading", () => {
    const table = page().blocks.find((block) => block.evidence.kind === "table");
    expect(table?.headingPath).toEqual([
      "Configuring APT proxies",
      "Measured speed-up",
      "Download time per client",
    ]);
    expect(table?.evidence).toMatchObject({
      columns: ["Clients", "Without proxy (s)", "With proxy (s)"],
      rows: [
        ["1", "42", "44"],
        ["5", "210", "61"],
        ["10", "418", "75"],
      ],
      chartHint: { type: "scatter", x: "Clients", y: ["Without proxy (s)", "With proxy (s)"] },
    });
  });

  it("keeps a <th> header row even when it holds numbers, and reads one-column tables as text", () => {
    const years = read("<table><tr><th>2023</th><th>2024</th></tr><tr><td>5</td><td>6</td></tr></table>");
    expect(years.blocks[0]?.evidence).toMatchObject({
      kind: "table",
      columns: ["2023", "2024"],
      rows: [["5", "6"]],
    });
    const layout = read("<table><tr><td>Intro text.</td></tr><tr><td>More text.</td></tr></table>");
    expect(layout.blocks.map((block) => [block.evidence.kind, sentencesOf(block)])).toEqual([
      ["paragraph", ["Intro text."]],
      ["paragraph", ["More text."]],
    ]);
  });

  it("reads a line break inside a table cell or a heading as a space between its words", () => {
    const result = read(
      "<h2>Mirror<br>list</h2><table><tr><th>Host</th><th>Notes</th></tr><tr><td>deb</td><td>fast<br>primary</td></tr></table>",
    );
    expect(result.blocks[0]?.headingPath).toEqual(["Mirror list"]);
    expect(sentencesOf(result.blocks[0])).toEqual(["Host: deb; Notes: fast primary"]);
  });

  it("keeps preformatted code line by line", () => {
    expect(sentencesOf(page().blocks.at(-1))).toEqual([
      "sudo systemctl restart apt-cacher-ng",
      "tail -f /var/log/apt-cacher-ng/apt-cacher.log",
    ]);
  });

  it("closes implied paragraphs and list items, and skips hidden elements", () => {
    const result = read(
      "<body><p>One.<p>Two.<ul><li>A<li>B</ul><div hidden>Secret.</div><img alt='Logo'></body>",
    );
    expect(result.blocks.map(sentencesOf)).toEqual([["One."], ["Two."], ["A", "B"], ["Logo"]]);
  });

  it("reads a page nested a hundred thousand elements deep", () => {
    const result = read(`<body>${"<div><span>".repeat(50_000)}Deep text.</body>`);
    expect(result.blocks.map(sentencesOf)).toEqual([["Deep text."]]);
  });

  it("decodes the page in the charset it declares", () => {
    const latin1 = Uint8Array.from([
      ...bytesOf('<meta charset="iso-8859-1"><p>Caf'),
      0xe9,
      ...bytesOf(" ouvert.</p>"),
    ]);
    const result = readHtml("cafe.html", latin1, {});
    expect(sentencesOf(result.blocks[0])).toEqual(["Café ouvert."]);
    expect(result.warnings).toEqual([]);
  });
});
