import { describe, expect, it } from "vitest";
import type { StoredSentence } from "../domain.ts";
import { decodeSentences, encodeSentences } from "./sentence-positions.ts";

const text = "Unpack the archive as follows: tar -xzf archive.tgz";
const span = {
  page_index: 2,
  page_width: 612,
  page_height: 792,
  rects: [[72, 100, 300, 112]] as [number, number, number, number][],
};

describe("stored sentence positions", () => {
  it("keeps what each sentence opens beside its spans, so answers keep a lead-in with its code", () => {
    const sentences: StoredSentence[] = [
      { text: "Unpack the archive as follows:", start: 0, end: 30, opens: "paragraph", spans: [span] },
      { text: "tar -xzf archive.tgz", start: 31, end: 51, opens: "code", spans: [span] },
    ];
    const stored = JSON.parse(JSON.stringify(encodeSentences(sentences)));
    expect(decodeSentences(text, stored)).toEqual(sentences);
  });

  it("reads sentences stored before layout was recorded, with no opening mark", () => {
    const stored = [
      [0, 30, [2, 612, 792, 72, 100, 300, 112]],
      [31, 51],
    ];
    expect(decodeSentences(text, stored)).toEqual([
      { text: "Unpack the archive as follows:", start: 0, end: 30, spans: [span] },
      { text: "tar -xzf archive.tgz", start: 31, end: 51 },
    ]);
  });
});
