/** Choosing a reader and the file-level problems every reader shares (empty, encoding, line ends). */
import { describe, expect, it } from "vitest";
import { SourceReadError } from "../types.ts";
import { isTextSource, readTextSource, supportedTextExtensions } from "./read-text-source.ts";
import { bytesOf, fixture, sentencesOf } from "./testing/text-fixtures.ts";

describe("readTextSource", () => {
  it("picks the reader by extension", () => {
    const kinds = (name: string) => [
      ...new Set(readTextSource(name, fixture(name)).blocks.map((block) => block.evidence.kind)),
    ];
    expect(kinds("apt-guide.md")).toEqual(["paragraph", "image", "table"]);
    expect(kinds("mirrors.csv")).toEqual(["table"]);
    expect(kinds("lecture.vtt")).toEqual(["video_interval"]);
    expect(kinds("interview.srt")).toEqual(["transcript_snippet"]);
    expect(kinds("packages.jsonl")).toEqual(["catalogue_record"]);
    expect(kinds("saved-page.html")).toEqual(["external_link", "image", "table"]);
  });

  it("passes the datasource URL to the reader", () => {
    const result = readTextSource("notes.txt", bytesOf("Mirrors sync hourly."), {
      datasourceUrl: "https://example.org/n",
    });
    expect(result.blocks[0]?.evidence).toEqual({ kind: "external_link", url: "https://example.org/n" });
  });

  it("recognises saved pages and subtitles by their content", () => {
    expect(readTextSource("page.txt", bytesOf("<!DOCTYPE html><title>T</title><p>Hi.</p>")).title).toBe("T");
    expect(readTextSource("captions.txt", fixture("lecture.vtt")).blocks[0]?.evidence.kind).toBe(
      "video_interval",
    );
    expect(readTextSource("download", fixture("interview.srt")).blocks[0]?.evidence.kind).toBe(
      "transcript_snippet",
    );
    expect(readTextSource("README", bytesOf("Plain words.")).blocks[0]?.evidence.kind).toBe("paragraph");
  });

  it("refuses an unknown type, listing the supported ones", () => {
    expect(() => readTextSource("slides.xyz", bytesOf("data"))).toThrow(
      new SourceReadError(
        `Unsupported file type: .xyz. Supported types are ${supportedTextExtensions.join(", ")}.`,
      ),
    );
    expect(supportedTextExtensions).toEqual(
      expect.arrayContaining([".md", ".txt", ".html", ".csv", ".tsv", ".vtt", ".srt", ".json", ".jsonl"]),
    );
  });

  it("refuses an empty or whitespace-only file", () => {
    for (const name of ["a.md", "a.txt", "a.html", "a.csv", "a.vtt", "a.json", "a.jsonl"]) {
      expect(() => readTextSource(name, bytesOf(" \n\t\r\n"))).toThrow(
        new SourceReadError("The file is empty."),
      );
    }
    expect(() => readTextSource("a.md", new Uint8Array())).toThrow("The file is empty.");
  });

  it("refuses a file with no readable text", () => {
    expect(() => readTextSource("app.html", bytesOf("<html><script>run()</script></html>"))).toThrow(
      new SourceReadError("No readable text was found in the file."),
    );
    expect(() => readTextSource("empty.json", bytesOf("[]"))).toThrow(
      "No readable text was found in the file.",
    );
  });

  it("reads invalid UTF-8 with replacement characters and a warning", () => {
    const bytes = Uint8Array.from([...bytesOf("Caf"), 0xe9, ...bytesOf(" ouvert.")]);
    const result = readTextSource("menu.txt", bytes);
    expect(sentencesOf(result.blocks[0])).toEqual(["Caf\uFFFD ouvert."]);
    expect(result.warnings).toEqual([
      'The file is not valid UTF-8: 1 character could not be read and was replaced with "\uFFFD".',
    ]);
  });

  it("reads CRLF line ends like LF", () => {
    const result = readTextSource(
      "crlf.md",
      bytesOf("# Title\r\n\r\nFirst line\r\nsecond line.\r\n\r\n## Next\r\n\r\nMore.\r\n"),
    );
    expect(result.blocks.map((block) => [block.headingPath, sentencesOf(block)])).toEqual([
      [["Title"], ["First line second line."]],
      [["Title", "Next"], ["More."]],
    ]);
  });

  it("drops a byte order mark and reads UTF-16 files", () => {
    const bom = Uint8Array.from([0xef, 0xbb, 0xbf, ...bytesOf("# Heading\n\nText.")]);
    expect(readTextSource("bom.md", bom).title).toBe("Heading");
    const utf16 = Uint8Array.from([
      0xff,
      0xfe,
      ...[..."a\tb\n1\t2\n"].flatMap((character) => [character.charCodeAt(0), 0]),
    ]);
    expect(readTextSource("excel.tsv", utf16).blocks[0]?.evidence).toMatchObject({ columns: ["a", "b"] });
  });
});

describe("isTextSource", () => {
  it("accepts known extensions and sniffable content, rejects PDFs and binaries", () => {
    expect(isTextSource("notes.MD", bytesOf("x"))).toBe(true);
    expect(isTextSource("page", bytesOf("<html><body>x</body></html>"))).toBe(true);
    expect(isTextSource("manual.pdf", bytesOf("%PDF-1.7"))).toBe(false);
    expect(isTextSource("blob", Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13]))).toBe(false);
  });
});
