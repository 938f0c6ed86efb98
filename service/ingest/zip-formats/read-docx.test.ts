/** Word documents: headings make the path a citation names; paragraphs, lists, tables and footnotes under it. */
import { describe, expect, it } from "vitest";
import { readDocx } from "./read-docx.ts";
import { docx, wordParagraph, wordTable } from "./testing/build-documents.ts";

const read = (bytes: Uint8Array) => readDocx("report.docx", bytes, {});
const texts = (blocks: ReturnType<typeof read>["blocks"]) =>
  blocks.map((block) => ({
    path: block.headingPath.join(" › "),
    kind: block.evidence.kind,
    text: block.sentences.map((sentence) => sentence.text).join(" "),
  }));

describe("readDocx", () => {
  it("puts paragraphs, list items and tables under their heading path", () => {
    const result = read(
      docx(
        [
          wordParagraph("Backup Handbook", "Title"),
          wordParagraph("Intro text before any heading."),
          wordParagraph("1. Tapes", "Heading1"),
          wordParagraph("Tapes rotate weekly.", undefined),
          wordParagraph("1.1 Rotation", "Heading2"),
          wordParagraph("Monday: full backup", "ListBullet"),
          '<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="3"/></w:numPr></w:pPr><w:r><w:t>Tuesday: </w:t></w:r><w:r><w:t>incremental</w:t></w:r></w:p>',
          wordTable([
            ["Tape", "Kept for"],
            ["Weekly", "5 weeks"],
            ["Monthly", "1 year"],
          ]),
          wordParagraph("2. Vault", "MyChapter"),
          '<w:p><w:r><w:t xml:space="preserve">The vault is </w:t></w:r><w:del><w:r><w:delText>not </w:delText></w:r></w:del><w:ins><w:r><w:t>always</w:t></w:r></w:ins><w:r><w:tab/><w:t>locked.</w:t></w:r></w:p>',
        ].join(""),
      ),
    );
    expect(result.title).toBe("Backup Handbook");
    expect(texts(result.blocks)).toEqual([
      { path: "", kind: "paragraph", text: "Intro text before any heading." },
      { path: "1. Tapes", kind: "paragraph", text: "Tapes rotate weekly." },
      {
        path: "1. Tapes › 1.1 Rotation",
        kind: "paragraph",
        text: "Monday: full backup Tuesday: incremental",
      },
      {
        path: "1. Tapes › 1.1 Rotation",
        kind: "table",
        text: "Tape: Weekly; Kept for: 5 weeks Tape: Monthly; Kept for: 1 year",
      },
      { path: "2. Vault", kind: "paragraph", text: "The vault is always locked." },
    ]);
    expect(result.blocks[3]?.evidence).toMatchObject({ columns: ["Tape", "Kept for"] });
  });

  it("follows each paragraph with its footnotes, numbered as Word shows them", () => {
    const result = read(
      docx(
        [
          wordParagraph("Retention", "Heading1"),
          '<w:p><w:r><w:t>Tapes are kept a year.</w:t></w:r><w:r><w:footnoteReference w:id="7"/></w:r></w:p>',
          wordParagraph("Old tapes are wiped."),
        ].join(""),
        {
          footnotes:
            '<w:footnote w:id="7"><w:p><w:r><w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> Two years for audits.</w:t></w:r></w:p></w:footnote>',
        },
      ),
    );
    expect(texts(result.blocks)).toEqual([
      { path: "Retention", kind: "paragraph", text: "Tapes are kept a year." },
      { path: "Retention › Footnote 1", kind: "paragraph", text: "Two years for audits." },
      { path: "Retention", kind: "paragraph", text: "Old tapes are wiped." },
    ]);
  });

  it("follows a table with the footnotes its cells refer to, so later notes keep Word's numbers", () => {
    const noted = (text: string, id: string) =>
      `<w:p><w:r><w:t>${text}</w:t></w:r><w:r><w:footnoteReference w:id="${id}"/></w:r></w:p>`;
    const note = (id: string, text: string) =>
      `<w:footnote w:id="${id}"><w:p><w:r><w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> ${text}</w:t></w:r></w:p></w:footnote>`;
    const table = `<w:tbl><w:tr><w:tc>${wordParagraph("Tape")}</w:tc><w:tc>${wordParagraph("Kept")}</w:tc></w:tr><w:tr><w:tc>${wordParagraph("Weekly")}</w:tc><w:tc>${noted("5 weeks", "3")}</w:tc></w:tr></w:tbl>`;
    const result = read(
      docx([wordParagraph("Retention", "Heading1"), table, noted("Old tapes are wiped.", "4")].join(""), {
        footnotes: note("3", "Counted from the last write.") + note("4", "With a degausser."),
      }),
    );
    expect(texts(result.blocks).slice(1)).toEqual([
      { path: "Retention › Footnote 1", kind: "paragraph", text: "Counted from the last write." },
      { path: "Retention", kind: "paragraph", text: "Old tapes are wiped." },
      { path: "Retention › Footnote 2", kind: "paragraph", text: "With a degausser." },
    ]);
  });

  it("takes the title from the document properties first, and reads headings set by outline level", () => {
    const result = read(
      docx(
        `<w:p><w:pPr><w:outlineLvl w:val="1"/></w:pPr><w:r><w:t>Level two</w:t></w:r></w:p>${wordParagraph("Under it &amp; &#x263A;")}`,
        { title: "Handbook 2026" },
      ),
    );
    expect(result.title).toBe("Handbook 2026");
    expect(texts(result.blocks)).toEqual([{ path: "Level two", kind: "paragraph", text: "Under it & ☺" }]);
  });

  it("repeats a vertically merged cell's text and pads spanned columns", () => {
    const cell = (text: string, properties = "") =>
      `<w:tc>${properties ? `<w:tcPr>${properties}</w:tcPr>` : ""}${wordParagraph(text)}</w:tc>`;
    const table = `<w:tbl><w:tr>${cell("Site")}${cell("Tape")}${cell("Days")}</w:tr><w:tr>${cell("Berlin", '<w:vMerge w:val="restart"/>')}${cell("Weekly")}${cell("7")}</w:tr><w:tr>${cell("", "<w:vMerge/>")}${cell("Monthly", '<w:gridSpan w:val="2"/>')}</w:tr></w:tbl>`;
    const result = read(docx(table));
    expect(result.blocks[0]?.evidence).toMatchObject({
      columns: ["Site", "Tape", "Days"],
      rows: [
        ["Berlin", "Weekly", "7"],
        ["Berlin", "Monthly", ""],
      ],
    });
  });

  it("reads a form's table: rows and cells inside content controls, and a cell's text in a control or a nested table", () => {
    const control = (inner: string) => `<w:sdt><w:sdtPr/><w:sdtContent>${inner}</w:sdtContent></w:sdt>`;
    const cell = (inner: string) => `<w:tc>${inner}</w:tc>`;
    const table = `<w:tbl><w:tr>${cell(wordParagraph("Field"))}${cell(wordParagraph("Value"))}</w:tr>${control(
      `<w:tr>${cell(wordParagraph("Owner"))}${control(cell(wordParagraph("Ingrid Berg")))}</w:tr>`,
    )}<w:tr>${cell(wordParagraph("Vault"))}${cell(control(wordParagraph("North cellar")))}</w:tr><w:tr>${cell(
      wordParagraph("Keys"),
    )}${cell(wordTable([["Brass key, red tag"]]))}</w:tr></w:tbl>`;
    expect(read(docx(table)).blocks[0]?.evidence).toMatchObject({
      columns: ["Field", "Value"],
      rows: [
        ["Owner", "Ingrid Berg"],
        ["Vault", "North cellar"],
        ["Keys", "Brass key, red tag"],
      ],
    });
  });

  it("reads a text box Word stores twice (for new and old readers) once", () => {
    const box = (text: string) => `<w:txbxContent>${wordParagraph(text)}</w:txbxContent>`;
    const paragraph = `<w:p><w:r><w:t xml:space="preserve">See the box: </w:t></w:r><w:r><mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"><mc:Choice Requires="wps"><w:drawing>${box("Tapes rotate.")}</w:drawing></mc:Choice><mc:Fallback><w:pict>${box("Tapes rotate.")}</w:pict></mc:Fallback></mc:AlternateContent></w:r></w:p>`;
    expect(texts(read(docx(paragraph)).blocks)).toEqual([
      { path: "", kind: "paragraph", text: "See the box: Tapes rotate." },
    ]);
  });

  it("says what a file is when it is another kind of package or no package", () => {
    expect(() => read(new TextEncoder().encode("plain words"))).toThrow(
      "This is not a Word document: the file is not a ZIP package (it may have the wrong extension).",
    );
  });
});
