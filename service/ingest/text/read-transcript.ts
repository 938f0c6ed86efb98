/** Reads WebVTT and SRT transcripts into timed blocks of ~30–60 s (video intervals when the video URL is known). */

import { splitSentences } from "../sentences.ts";
import { SourceReadError, type TextExtraction, type TextSourceBlock } from "../types.ts";
import { decodeSourceText } from "./decode-text.ts";
import { type Cue, type ParsedCues, parseSrt, parseWebVtt } from "./parse-cues.ts";
import type { TextReadContext, TextReader } from "./text-reader.ts";
import { httpUrl, isVideoUrl } from "./urls.ts";

const MIN_SECONDS = 30;
const MAX_SECONDS = 60;
const MIN_WORDS = 60;
const MAX_WORDS = 150;
/** A pause this long usually changes the topic or speaker, so a window ends there. */
const PAUSE_SECONDS = 10;
const TINY_TAIL_SECONDS = 10;

/** Reads a `.vtt` file. */
export const readWebVtt: TextReader = (_fileName, bytes, context) => {
  const { text, warnings } = decodeSourceText(bytes);
  return transcriptExtraction(parseWebVtt(text), warnings, context);
};

/** Reads a `.srt` file. */
export const readSrt: TextReader = (_fileName, bytes, context) => {
  const { text, warnings } = decodeSourceText(bytes);
  return transcriptExtraction(parseSrt(text), warnings, context);
};

function transcriptExtraction(
  parsed: ParsedCues,
  warnings: string[],
  context: TextReadContext,
): TextExtraction {
  if (parsed.cues.length === 0)
    throw new SourceReadError("No subtitle cues with a valid time range were found in the file.");
  // The datasource URL counts only when it plays video; a URL the transcript names as its source always does.
  const videoUrl = isVideoUrl(context.datasourceUrl)
    ? httpUrl(context.datasourceUrl)
    : httpUrl(parsed.sourceUrl);
  const blocks = groupCues(parsed.cues).flatMap((window): TextSourceBlock[] => {
    const sentences = splitSentences(window.map((cue) => cue.text).join(" ")).map((text) => ({ text }));
    if (sentences.length === 0) return [];
    const startS = window[0]?.startS ?? 0;
    const endS = Math.max(...window.map((cue) => cue.endS));
    return [
      {
        headingPath: [],
        sentences,
        evidence: videoUrl
          ? { kind: "video_interval", startS, endS, url: videoUrl }
          : { kind: "transcript_snippet", startS, endS },
      },
    ];
  });
  return { title: parsed.title, blocks, warnings: [...warnings, ...parsed.warnings] };
}

/**
 * Groups consecutive cues into windows: a window closes at a sentence end once it spans 30 s or 60 words,
 * before it would pass 60 s or 150 words, and at a pause of 10 s. A tiny last window joins the one before.
 */
function groupCues(cues: Cue[]): Cue[][] {
  const windows: Cue[][] = [];
  let current: Cue[] = [];
  let words = 0;
  const close = () => {
    if (current.length > 0) windows.push(current);
    current = [];
    words = 0;
  };
  for (const cue of cues) {
    const cueWords = cue.text.split(" ").length;
    const first = current[0];
    const last = current.at(-1);
    if (
      first &&
      last &&
      (cue.endS - first.startS > MAX_SECONDS ||
        words + cueWords > MAX_WORDS ||
        cue.startS - last.endS >= PAUSE_SECONDS)
    ) {
      close();
    }
    current.push(cue);
    words += cueWords;
    const duration = cue.endS - (current[0]?.startS ?? cue.startS);
    if ((duration >= MIN_SECONDS || words >= MIN_WORDS) && /[.!?…]["')\]]*$/u.test(cue.text)) close();
  }
  close();
  const tail = windows.at(-1);
  const beforeTail = windows.at(-2);
  if (tail && beforeTail && (tail.at(-1)?.endS ?? 0) - (tail[0]?.startS ?? 0) < TINY_TAIL_SECONDS) {
    const gap = (tail[0]?.startS ?? 0) - (beforeTail.at(-1)?.endS ?? 0);
    if (gap < PAUSE_SECONDS) windows.splice(-2, 2, [...beforeTail, ...tail]);
  }
  return windows;
}
