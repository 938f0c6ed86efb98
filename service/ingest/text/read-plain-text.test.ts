/** Plain text files: simple headings, wrapped paragraphs, bullet lists and long paragraphs. */
import { describe, expect, it } from "vitest";
import { readPlainText } from "./read-plain-text.ts";
import { bytesOf, fixture, sentencesOf } from "./testing/text-fixtures.ts";

const notes = () => readPlainText("release-notes.txt", fixture("release-notes.txt"), {});

describe("readPlainText", () => {
  it("uses an underlined first line as the title and top heading", () => {
    expect(notes().title).toBe("Mirror Service Release Notes");
    expect(notes().blocks[0]?.headingPath).toEqual(["Mirror Service Release Notes"]);
  });

  it("nests numbered and short standalone headings", () => {
    const blocks = notes().blocks;
    expect(blocks[1]?.headingPath).toEqual(["Mirror Service Release Notes", "1 Version 3.2"]);
    expect(blocks[2]?.headingPath).toEqual([
      "Mirror Service Release Notes",
      "1 Version 3.2",
      "1.1 Known issues",
    ]);
    expect(blocks[3]?.headingPath).toEqual(["Mirror Service Release Notes", "UPGRADE STEPS"]);
  });

  it("joins hard-wrapped lines into sentences", () => {
    expect(sentencesOf(notes().blocks[1])).toEqual([
      "The sync job now retries failed downloads three times.",
      "Logs moved to /var/log/mirror/sync.log, one file per day.",
    ]);
  });

  it("reads bullet lines as list items", () => {
    expect(sentencesOf(notes().blocks[3])).toEqual([
      "Stop the sync timer.",
      "Install the new package from the release page.",
      "Start the timer again and check the log.",
    ]);
  });

  it("does not take a short last line, or a sentence, for a heading", () => {
    const result = readPlainText("a.txt", bytesOf("It works.\n\nThe end"), {});
    expect(result.title).toBeNull();
    expect(result.blocks.map((block) => block.headingPath)).toEqual([[], []]);
  });

  it("cuts a very long paragraph into several retrieval-sized blocks", () => {
    const paragraph = Array.from(
      { length: 60 },
      (_, index) => `Sentence number ${index} has six words.`,
    ).join(" ");
    const blocks = readPlainText("long.txt", bytesOf(paragraph), {}).blocks;
    expect(blocks.length).toBeGreaterThan(1);
    expect(blocks.flatMap(sentencesOf)).toHaveLength(60);
  });
});
