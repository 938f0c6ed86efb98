import { describe, expect, it } from "vitest";
import { splitSentences } from "./sentences.ts";

const split = (text: string, lineOffsets: number[] = [], maxWords = 60): string[] =>
  splitSentences(text, lineOffsets, maxWords).map((range) => text.slice(range.start, range.end));

describe("splitSentences", () => {
  it("splits at sentence ends followed by a capital, a digit or a quote", () => {
    expect(
      split("The shell reads commands. It runs them! Does it stop? “Yes,” it does. 2 options exist."),
    ).toEqual([
      "The shell reads commands.",
      "It runs them!",
      "Does it stop?",
      "“Yes,” it does.",
      "2 options exist.",
    ]);
  });

  it("keeps abbreviations, initials, version numbers and file names inside the sentence", () => {
    const text =
      "Edit apt.conf, e.g. with vi, i.e. a text editor, cf. Fig. 3 and Sec. 2. Version 5.4.2 needs J. R. Smith's patch etc. and more. Done.";
    expect(split(text)).toEqual([
      "Edit apt.conf, e.g. with vi, i.e. a text editor, cf. Fig. 3 and Sec. 2.",
      "Version 5.4.2 needs J. R. Smith's patch etc. and more.",
      "Done.",
    ]);
  });

  it("does not split a command line or a sentence continuing in lowercase", () => {
    expect(split("Run ls -l /etc. then press Enter. Next step.")).toEqual([
      "Run ls -l /etc. then press Enter.",
      "Next step.",
    ]);
  });

  it("cuts a long run without punctuation at line boundaries into units of at most the word limit", () => {
    const lines = Array.from({ length: 12 }, (_, index) => `cell${index} a b c d`);
    const text = lines.join(" ");
    const offsets = lines.map((_, index) => lines.slice(0, index).join(" ").length + (index > 0 ? 1 : 0));
    const units = split(text, offsets, 12);
    expect(units).toEqual([
      lines.slice(0, 2).join(" "),
      lines.slice(2, 4).join(" "),
      ...[4, 6, 8, 10].map((start) => lines.slice(start, start + 2).join(" ")),
    ]);
    for (const unit of units) expect(unit.split(" ").length).toBeLessThanOrEqual(12);
  });

  it("cuts inside a line only when one line alone is over the limit", () => {
    const text = Array.from({ length: 25 }, (_, index) => `w${index}`).join(" ");
    expect(split(text, [0], 10).map((unit) => unit.split(" ").length)).toEqual([10, 10, 5]);
  });

  it("never returns empty or padded ranges", () => {
    expect(split("   ")).toEqual([]);
    expect(split("  One.  Two.  ")).toEqual(["One.", "Two."]);
  });
});
