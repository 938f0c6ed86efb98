/** OCR words of an image as paragraphs of sentences, each sentence boxed in image pixels, one rectangle per line. */
import type { PdfSpan } from "../../../sdk/core/wire.ts";
import { type Rect, unionRect } from "../pdf/geometry.ts";
import type { OcrWord } from "../pdf/ocr.ts";
import { sentenceRanges } from "../sentences.ts";
import type { SourceSentence, TextSourceBlock } from "../types.ts";

export interface ImageSize {
  width: number;
  height: number;
}

/** The words of one tesseract paragraph, joined with spaces; `starts[i]` is where word i begins. */
function paragraphText(words: readonly OcrWord[]) {
  let text = "";
  const starts: number[] = [];
  const lineOffsets: number[] = [];
  let line: string | null = null;
  for (const word of words) {
    if (text !== "") text += " ";
    if (word.line !== line) {
      lineOffsets.push(text.length);
      line = word.line;
    }
    starts.push(text.length);
    text += word.text;
  }
  return { text, starts, lineOffsets };
}

function paragraphSentences(words: readonly OcrWord[], size: ImageSize): SourceSentence[] {
  const { text, starts, lineOffsets } = paragraphText(words);
  return sentenceRanges(text, { lineOffsets }).map((range) => {
    const lineRects = new Map<string, Rect>();
    words.forEach((word, index) => {
      const start = starts[index] ?? 0;
      if (start + word.text.length <= range.start || start >= range.end) return;
      const box: Rect = [word.left, word.top, word.left + word.width, word.top + word.height];
      lineRects.set(word.line, unionRect(lineRects.get(word.line) ?? null, box));
    });
    // An image's sentences carry one span, "page" 0, in pixels: stored and merged like a PDF page's.
    const span: PdfSpan = {
      page_index: 0,
      rects: [...lineRects.values()],
      page_width: size.width,
      page_height: size.height,
    };
    return { text: text.slice(range.start, range.end), spans: [span] };
  });
}

/** One block per tesseract paragraph, in tesseract's reading order. */
export function imageBlocks(words: readonly OcrWord[], size: ImageSize): TextSourceBlock[] {
  const paragraphs = new Map<string, OcrWord[]>();
  for (const word of words) {
    const key = word.line.split("/").slice(0, 2).join("/");
    const paragraph = paragraphs.get(key);
    if (paragraph === undefined) paragraphs.set(key, [word]);
    else paragraph.push(word);
  }
  return [...paragraphs.values()].map((paragraph) => ({
    headingPath: [],
    sentences: paragraphSentences(paragraph, size),
    evidence: { kind: "image", url: null, alt: "", ocr: true },
  }));
}
