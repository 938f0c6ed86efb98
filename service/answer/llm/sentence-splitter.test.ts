import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createSentenceSplitter, type DraftSentence } from "./sentence-splitter.ts";

function splitWhole(text: string): DraftSentence[] {
  const splitter = createSentenceSplitter();
  return [...splitter.push(text), ...splitter.end()];
}

function splitPieces(pieces: readonly string[]): DraftSentence[] {
  const splitter = createSentenceSplitter();
  return [...pieces.flatMap((piece) => splitter.push(piece)), ...splitter.end()];
}

const answer =
  'You can change to console 3 from the commandline with chvt 3 [1.3-4]. Type "su -l" from any user shell prompt [2.3]. ' +
  "Ctrl-D closes the shell, e.g. at the console [3.1][3.2]. It runs Debian 5.10 [1.1], on the Linux host [1.1, 2.1].\n" +
  "No marker here. Broken [2] marker. Last one [9.1]";

describe("reading model sentences from a stream", () => {
  it("finds each sentence and the passage sentences its markers cite", () => {
    expect(splitWhole(answer)).toEqual([
      {
        text: "You can change to console 3 from the commandline with chvt 3.",
        citations: [{ passage: 1, first: 3, last: 4 }],
        malformed: 0,
      },
      {
        text: 'Type "su -l" from any user shell prompt.',
        citations: [{ passage: 2, first: 3, last: 3 }],
        malformed: 0,
      },
      {
        text: "Ctrl-D closes the shell, e.g. at the console.",
        citations: [
          { passage: 3, first: 1, last: 1 },
          { passage: 3, first: 2, last: 2 },
        ],
        malformed: 0,
      },
      {
        text: "It runs Debian 5.10, on the Linux host.",
        citations: [
          { passage: 1, first: 1, last: 1 },
          { passage: 1, first: 1, last: 1 },
          { passage: 2, first: 1, last: 1 },
        ],
        malformed: 0,
      },
      { text: "No marker here.", citations: [], malformed: 0 },
      { text: "Broken marker.", citations: [], malformed: 1 },
      { text: "Last one", citations: [{ passage: 9, first: 1, last: 1 }], malformed: 0 },
    ]);
  });

  it("gives the same sentences however the stream is cut, markers split across chunks included", () => {
    const whole = splitWhole(answer);
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: answer.length - 1 }), { maxLength: 40 }),
        (cuts) => {
          const points = [0, ...cuts.sort((a, b) => a - b), answer.length];
          const pieces = points.slice(1).map((end, index) => answer.slice(points[index], end));
          expect(splitPieces(pieces)).toEqual(whole);
        },
      ),
      { numRuns: 300 },
    );
    expect(splitPieces([...answer])).toEqual(whole);
  });

  it("releases a sentence only once the text after it shows it is complete", () => {
    const splitter = createSentenceSplitter();
    expect(splitter.push("Use chvt 3 [1.")).toEqual([]);
    expect(splitter.push("4]")).toEqual([]);
    expect(splitter.push(". ")).toEqual([]);
    expect(splitter.push("Then")).toEqual([
      { text: "Use chvt 3.", citations: [{ passage: 1, first: 4, last: 4 }], malformed: 0 },
    ]);
    expect(splitter.end()).toEqual([{ text: "Then", citations: [], malformed: 0 }]);
  });

  it("accepts markers after the period, on their own line, and as list items", () => {
    expect(
      splitWhole("Type exit. [3.2]\nPress Ctrl-D.\n[3.1]\n- Type su -l [2.3]\n- Type root [2.2]"),
    ).toEqual([
      { text: "Type exit.", citations: [{ passage: 3, first: 2, last: 2 }], malformed: 0 },
      { text: "Press Ctrl-D.", citations: [{ passage: 3, first: 1, last: 1 }], malformed: 0 },
      { text: "Type su -l", citations: [{ passage: 2, first: 3, last: 3 }], malformed: 0 },
      { text: "Type root", citations: [{ passage: 2, first: 2, last: 2 }], malformed: 0 },
    ]);
  });

  it("keeps brackets that are not markers as text", () => {
    expect(splitWhole("Run apt-get [options] install vim [1.2-1.3].")).toEqual([
      {
        text: "Run apt-get [options] install vim.",
        citations: [{ passage: 1, first: 2, last: 3 }],
        malformed: 0,
      },
    ]);
  });
});
