/** A long made-up manual as a PDF, for tests that need a document taking seconds (not minutes) to index. */
import { createRandom } from "../index/testing/synthetic-corpus.ts";
import { makeTextPdf, type PlacedText } from "../ingest/pdf/testing/pdf-fixtures.ts";

const openers = ["The", "Each", "Every", "A", "This", "That"];
const adjectives = [
  "nightly",
  "remote",
  "encrypted",
  "stale",
  "primary",
  "spare",
  "shared",
  "signed",
  "local",
];
const nouns = [
  "mirror",
  "archive",
  "snapshot",
  "certificate",
  "queue",
  "replica",
  "ledger",
  "daemon",
  "bucket",
  "report",
  "tunnel",
  "volume",
  "checksum",
  "gateway",
  "journal",
];
const verbs = [
  "copies",
  "verifies",
  "rotates",
  "trims",
  "signs",
  "announces",
  "rebuilds",
  "mounts",
  "indexes",
];
const endings = [
  "before noon",
  "after each release",
  "when the disk fills up",
  "once a week",
  "on the first boot",
  "during the maintenance window",
  "whenever an operator asks",
];

/**
 * `pages` Letter pages of Helvetica prose, a numbered section heading on each, paragraphs of five plain
 * sentences: about three passages a page, the same for a given seed.
 */
export function makeManualPdf(pages: number, seed = 1): Uint8Array {
  const random = createRandom(seed);
  const pick = (words: readonly string[]) => words[Math.floor(random() * words.length)]!;
  const sentence = () =>
    `${pick(openers)} ${pick(adjectives)} ${pick(nouns)} ${pick(verbs)} the ${pick(nouns)} of the ` +
    `${pick(adjectives)} ${pick(nouns)} ${pick(endings)}.`;
  return makeTextPdf(
    Array.from({ length: pages }, (_, page) => {
      const texts: PlacedText[] = [
        { x: 72, y: 730, size: 14, text: `${page + 1}. The ${pick(nouns)} and the ${pick(nouns)}` },
      ];
      let y = 700;
      const write = (text: string) => {
        texts.push({ x: 72, y, size: 10, text });
        y -= 12;
      };
      while (y > 150) {
        let line = "";
        for (const word of Array.from({ length: 5 }, sentence).join(" ").split(" ")) {
          if (line.length + word.length >= 85) {
            write(line);
            line = word;
          } else line = line ? `${line} ${word}` : word;
        }
        write(line);
        y -= 8; // a paragraph's gap
      }
      return texts;
    }),
  );
}
