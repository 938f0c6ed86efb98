/**
 * The stored form of a passage's sentence positions. Each sentence is an array: its offsets in the passage
 * text, then one array per PDF span, `[page_index, page_width, page_height, x0, y0, x1, y1, …]` with four
 * numbers per rect, and the page's printed label last where the PDF defines page labels. Without the keys repeated for every sentence and span, the JSON of a document is ~40%
 * of the objects', and the embedded database's commit grows with the bytes it parses: octave.pdf's 2,351
 * passages took 1.2-1.5 s to commit, now 0.5-0.7 s. Rows written before this form keep objects
 * (`{ start, end, spans, text? }`), which are still read.
 */
import type { PdfSpan, Rect } from "../../sdk/core/wire.ts";
import type { StoredSentence } from "../domain.ts";

type StoredSpan = Array<number | string>;
type CompactSentence = [number, number, ...StoredSpan[]];
type LegacySentence = Omit<StoredSentence, "text"> & { text?: string };

const encodeSpan = (span: PdfSpan): StoredSpan => [
  span.page_index,
  span.page_width,
  span.page_height,
  ...span.rects.flat(),
  ...(span.page_label === undefined ? [] : [span.page_label]),
];

function decodeSpan(stored: StoredSpan): PdfSpan {
  const numbers = stored.filter((value): value is number => typeof value === "number");
  const [pageIndex = 0, pageWidth = 0, pageHeight = 0] = numbers;
  const rects: Rect[] = [];
  for (let at = 3; at + 3 < numbers.length; at += 4) {
    rects.push([numbers[at] ?? 0, numbers[at + 1] ?? 0, numbers[at + 2] ?? 0, numbers[at + 3] ?? 0]);
  }
  const label = stored.at(-1);
  return {
    page_index: pageIndex,
    ...(typeof label === "string" ? { page_label: label } : {}),
    rects,
    page_width: pageWidth,
    page_height: pageHeight,
  };
}

/** The sentences as stored; their text is the passage's slice and is not stored again. */
export function encodeSentences(sentences: readonly StoredSentence[]): CompactSentence[] {
  return sentences.map(({ start, end, spans }) => [start, end, ...(spans ?? []).map(encodeSpan)]);
}

/** The sentences of a stored row, in either form; each one's text is sliced from the passage `text`. */
export function decodeSentences(text: string, stored: readonly unknown[]): StoredSentence[] {
  return stored.map((sentence) => {
    if (Array.isArray(sentence)) {
      const [start, end, ...spans] = sentence as CompactSentence;
      const decoded: StoredSentence = { text: text.slice(start, end), start, end };
      if (spans.length > 0) decoded.spans = spans.map(decodeSpan);
      return decoded;
    }
    const legacy = sentence as LegacySentence;
    return { ...legacy, text: legacy.text ?? text.slice(legacy.start, legacy.end) };
  });
}
