/** Sentence boundaries a reader of a citation would agree with, for prose and for PDF blocks. */
import { describe, expect, it } from "vitest";
import { sentenceRanges, splitSentences } from "./sentences.ts";

const split = (text: string, lineOffsets: number[] = [], maxWords = 60): string[] =>
  sentenceRanges(text, { lineOffsets, maxWords }).map((range) => text.slice(range.start, range.end));

describe("splitSentences", () => {
  it("splits ordinary prose at sentence ends", () => {
    expect(splitSentences("APT installs packages. It also removes them! Does it upgrade? Yes")).toEqual([
      "APT installs packages.",
      "It also removes them!",
      "Does it upgrade?",
      "Yes",
    ]);
  });

  it("does not split after common abbreviations", () => {
    expect(
      splitSentences("Use a mirror, e.g. Debian's, i.e. the fast one. Mr. Smith agrees. Dr. Who too."),
    ).toEqual(["Use a mirror, e.g. Debian's, i.e. the fast one.", "Mr. Smith agrees.", "Dr. Who too."]);
    expect(splitSentences("See Fig. 3 and No. 12 for the layout. J. R. R. Tolkien wrote it.")).toEqual([
      "See Fig. 3 and No. 12 for the layout.",
      "J. R. R. Tolkien wrote it.",
    ]);
  });

  it("keeps figure, section and equation labels with their abbreviation, and still ends on a plain no.", () => {
    expect(splitSentences("As shown in Fig. S1 the curve rises. See Sec. IV for details.")).toEqual([
      "As shown in Fig. S1 the curve rises.",
      "See Sec. IV for details.",
    ]);
    expect(
      splitSentences("Compare Eq. A3 and Vol. II of the manual. The answer is no. The next step is easy."),
    ).toEqual(["Compare Eq. A3 and Vol. II of the manual.", "The answer is no.", "The next step is easy."]);
  });

  it("treats etc. and dotted abbreviations by what follows", () => {
    expect(splitSentences("Keep logs, caches, etc. in /var. The rest goes to /srv.")).toEqual([
      "Keep logs, caches, etc. in /var.",
      "The rest goes to /srv.",
    ]);
    expect(splitSentences("It ships in the U.S. Army kit. It arrived at 5 p.m. The box was open.")).toEqual([
      "It ships in the U.S. Army kit.",
      "It arrived at 5 p.m.",
      "The box was open.",
    ]);
  });

  it("keeps decimals, version numbers, file names and URLs whole", () => {
    expect(
      splitSentences(
        "Version 1.2.3 costs 3.50 EUR. Edit apt.conf or /etc/apt/sources.list.d/debian.sources first. " +
          "Details at https://wiki.debian.org/Apt.Conf?x=1.2. Then run it.",
      ),
    ).toEqual([
      "Version 1.2.3 costs 3.50 EUR.",
      "Edit apt.conf or /etc/apt/sources.list.d/debian.sources first.",
      "Details at https://wiki.debian.org/Apt.Conf?x=1.2.",
      "Then run it.",
    ]);
  });

  it("keeps closing quotes and brackets with their sentence", () => {
    expect(splitSentences('He typed "apt purge." Then he left (as usual.) Nobody noticed.')).toEqual([
      'He typed "apt purge."',
      "Then he left (as usual.)",
      "Nobody noticed.",
    ]);
  });

  it("does not split a list number from its item", () => {
    expect(splitSentences("1. Update the lists. 2. Install the package.")).toEqual([
      "1. Update the lists.",
      "2. Install the package.",
    ]);
  });

  it("cuts a long run without punctuation at about 60 words, preferring a comma", () => {
    const words = Array.from({ length: 150 }, (_, index) =>
      index === 49 ? `word${index},` : `word${index}`,
    );
    const pieces = splitSentences(words.join(" "));
    expect(pieces.map((piece) => piece.split(" ").length)).toEqual([50, 60, 40]);
    expect(pieces[0]?.endsWith("word49,")).toBe(true);
    expect(pieces.join(" ")).toBe(words.join(" "));
  });

  it("never leaves a one-word tail when a run is just over the limit", () => {
    const pieces = splitSentences(Array.from({ length: 61 }, () => "word").join(" "));
    expect(pieces.map((piece) => piece.split(" ").length)).toEqual([31, 30]);
  });

  it("collapses whitespace and splits ideographic full stops", () => {
    expect(splitSentences("  One\n line.\tTwo  ")).toEqual(["One line.", "Two"]);
    expect(splitSentences("这是第一句。这是第二句！")).toEqual(["这是第一句。", "这是第二句！"]);
    expect(splitSentences("   ")).toEqual([]);
  });
});

describe("sentenceRanges over a PDF block", () => {
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
